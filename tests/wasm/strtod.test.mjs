// The shipped module reads JSON numbers by the JS engine's Number() (wasm/js_strtod.js), the native
// CLI by glibc's strtod: both must give the same double, to the last bit, for numbers that are hard
// to round (exact halfway points between neighbouring doubles and a hair either side, more than 20
// significant digits, subnormals, the ends of the range, integers past 64 bits that fall back to
// strtod). The core echoes the number it read in the batch field's error message, printed
// shortest-round-trip, so equal messages mean equal doubles. The CLI is build/native/gpusizer
// (GPUSIZER_CLI points elsewhere).
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

const TOKENS = ['0.1', '1e23', '1e308', '1.7976931348623157e308', '1.7976931348623158e308', '1e400',
  '1.7976931348623159e308', '5e-324', '4.9406564584124654e-324', '2.4703282292062327e-324',
  '2.4703282292062328e-324', '1e-400', '2.2250738585072011e-308', '2.2250738585072012e-308', '-0.0', '0e0',
  '123456789012345678901234567890', '-123456789012345678901234567890', '18446744073709551616',
  '-9223372036854775809', '9007199254740993.0', '9007199254740995.0', '0.30000000000000004', '1.5E+7',
  '-1.00000000000000011102230246251565404236316680908203125', // -(1 + 2^-53): the tie goes to even, -1
  '-1.00000000000000011102230246251565404236316680908203126', // a hair further from 0: -(1 + 2^-52)
  '-1.00000000000000011102230246251565404236316680908203124', // a hair nearer 0: -1
  `1${'0'.repeat(308)}`, `0.${'0'.repeat(330)}1`, `1.${'3'.repeat(800)}`];

// The exact decimal of the point halfway between a double and the next one up (ties to even), for
// doubles drawn from every binade by a fixed linear congruential sequence.
function halfway(bits) {
  const exp = Number((bits >> 52n) & 0x7ffn);
  const mant = (bits & ((1n << 52n) - 1n)) | (exp ? 1n << 52n : 0n);
  const m = 2n * mant + 1n;
  const e = (exp ? exp - 1075 : -1074) - 1;  // value = m * 2^e
  if (e >= 0) return (m << BigInt(e)).toString();
  const s = (m * 5n ** BigInt(-e)).toString().padStart(1 - e, '0');
  return `${s.slice(0, s.length + e)}.${s.slice(s.length + e)}`;
}
let seed = 12345n;
for (let i = 0; i < 40; i++) {
  seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 64n);
  const h = halfway(seed % 0x7fefffffffffffffn);
  TOKENS.push(h, `${h}1`, `${h.slice(0, 40)}e${h.includes('.') ? h.indexOf('.') - 40 : h.length - 40}`);
}

test('the module reads every hard number to the same double as the native CLI', () => {
  assert.ok(existsSync(cli), `${cli} is missing: build it first (scripts/build)`);
  for (const token of TOKENS) {
    const input = `{"model":"llama-3.1-8b","batch":${token}}`;
    const { error } = JSON.parse(core.estimate(input));
    const fromCli = spawnSync(cli, ['estimate', '-'], { input, encoding: 'utf8' });
    assert.equal(fromCli.status, 2, token);
    assert.equal(`error: ${error.field}: ${error.message}`, fromCli.stderr.split('\n')[0], token);
  }
});
