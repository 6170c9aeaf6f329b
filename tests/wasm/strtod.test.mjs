// The wasm module reads JSON numbers with its own strtod (wasm/strtod.cpp), not the C library's.
// It must give the double nearest the decimal text, ties to even, as musl and glibc (the native
// CLI) do, or answers would drift. The cases that test rounding: the exact midpoints between two
// adjacent doubles (computed here with BigInt), and the midpoints nudged by 1e-60 either way, long
// fractions and integers beyond 2^53 (its big-number path), subnormals, overflow.
// The module echoes what it read: engine_options.gpu_memory_utilization comes back as
// memory.engine.fraction, and an out-of-range model.params is quoted in the error ("got X").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = process.env.GPUSIZER_CLI ?? join(root, 'build/native/gpusizer');
const { default: createGpusizer } = await import(pathToFileURL(join(root, 'dist/gpusizer.mjs')).href);
const core = await createGpusizer({ wasmBinary: new Uint8Array(await readFile(join(root, 'dist/gpusizer.wasm'))) });

const fraction = (text) => {
  const out = JSON.parse(core.estimate(`{"model": "llama-3.1-8b", "gpu": "h100-80gb", "engine_options": {"gpu_memory_utilization": ${text}}}`));
  assert.ok(out.memory, `${text}: ${JSON.stringify(out.error)}`);
  return out.memory.engine.fraction;
};
const quoted = (text) => {
  const { error } = JSON.parse(core.estimate(`{"model": {"params": ${text}}, "gpu": "t4"}`));
  const got = /\(got ([^)]*)\)$/.exec(error?.message ?? '');
  assert.ok(got, `${text}: ${JSON.stringify(error)}`);
  return Number(got[1]);
};

// A fixed pseudo-random sequence (xorshift), so a failure names the same case on every run.
let seed = 0x2545f491n;
const random = (bits) => {
  let r = 0n;
  for (let i = 0; i < bits; i += 32) {
    seed ^= (seed << 13n) & 0xffffffffn; seed ^= seed >> 17n; seed ^= (seed << 5n) & 0xffffffffn;
    r = (r << 32n) | seed;
  }
  return r & ((1n << BigInt(bits)) - 1n);
};
// A double m * 2^e (2^52 <= m < 2^53) and its neighbour (m + 1) * 2^e; the midpoint rounds to the
// even one of the two.
const even = (m, e) => Number(m % 2n === 0n ? m : m + 1n) * 2 ** e;

test('fractions: midpoints between doubles round to even, nudged ones to the nearer', () => {
  for (let i = 0; i < 300; i++) {
    const m = (1n << 52n) | random(52);  // doubles in [0.5, 1): m * 2^-53
    // (2m + 1) * 2^-54 has exactly 54 decimals: (2m + 1) * 5^54 / 10^54; written with 60 of them.
    const mid = (2n * m + 1n) * 5n ** 54n * 10n ** 6n;
    const text = (n) => `0.${n.toString().padStart(60, '0')}`;
    assert.equal(fraction(text(mid)), even(m, -53), text(mid));
    assert.equal(fraction(text(mid + 1n)), Number(m + 1n) * 2 ** -53, text(mid + 1n));
    assert.equal(fraction(text(mid - 1n)), Number(m) * 2 ** -53, text(mid - 1n));
  }
});

test('fractions of 1 to 20 significant digits read as JavaScript reads them', () => {
  for (let i = 0; i < 400; i++) {
    const digits = random(70).toString().slice(0, 1 + i % 20);
    const exponent = -(digits.length + (i % 7));
    const text = i % 2 ? `${digits}e${exponent}` : `0.${'0'.repeat(i % 7)}${digits}`;
    if (Number(text) > 0) assert.equal(fraction(text), Number(text), text);
  }
});

test('integers beyond 2^53: midpoints round to even, nudged ones to the nearer', () => {
  for (let i = 0; i < 300; i++) {
    const m = (1n << 52n) | random(52);
    const e = 20 + (i % 40);  // 2^72 and more: past model.params' range, so its error quotes them
    const mid = (2n * m + 1n) << BigInt(e - 1);
    assert.equal(quoted(mid.toString()), even(m, e), mid.toString());
    assert.equal(quoted(`${mid}.000000000000000000001`), Number(m + 1n) * 2 ** e);
    assert.equal(quoted((mid - 1n).toString()), Number(m) * 2 ** e);
  }
});

test('the edges read as the native CLI (glibc) reads them', () => {
  assert.ok(existsSync(cli), `${cli} is missing: build it first (scripts/build)`);
  const cases = ['4.9406564584124654e-324', '2.4703282292062328e-324', '2.4703282292062327e-324', '1e-400',
    '2.2250738585072011e-308', '2.2250738585072014e-308', '1.7976931348623157e308', '1.7976931348623158e308',
    '1.7976931348623159e308', '1e400', '-1e400', '-0.0', '9007199254740993', '1e23', `0.${'3'.repeat(900)}`,
    `1${'0'.repeat(400)}`, `${'9'.repeat(800)}e-500`, '0.1e-99999999999'];
  for (const number of cases) {
    const text = `{"model": {"params": ${number}}, "gpu": "t4"}`;
    const run = spawnSync(cli, ['estimate', '-'], { input: text, encoding: 'utf8' });
    const { error } = JSON.parse(core.estimate(text));
    assert.equal(`error: ${error.field}: ${error.message}`, run.stderr.split('\n')[0], number);
  }
});
