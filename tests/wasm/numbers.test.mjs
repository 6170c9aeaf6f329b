// Fractional numbers through the shipped module's C library: the JSON reader's strtod turns a
// decimal into the nearest double (ties and the halfway point between two doubles included), and an
// answer writes fractional figures, in its names and notes and as JSON numbers, as the shortest text
// that reads back as the same double (what JavaScript writes). A replacement of strtod or of the
// formatting that rounds otherwise, or traps, fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '../../dist');
const { default: createGpusizer } = await import(pathToFileURL(join(dist, 'gpusizer.mjs')).href);
const core = await createGpusizer({ wasmBinary: new Uint8Array(await readFile(join(dist, 'gpusizer.wasm'))) });

// headroom's largest value is 0.9: a number the reader rounds above it comes back in the error.
const headroom = (text) => JSON.parse(core.estimate(`{"model": "llama-3.1-8b", "headroom": ${text}}`));

test('a fractional number in the input is read as the double nearest to it', () => {
  // 0.9 is 0.90000000000000002220...; the next double up 0.90000000000000013322...; halfway
  // between them 0.90000000000000007771...
  for (const text of ['0.9', '0.90000000000000002', '0.900000000000000077', '9e-1', '0.09e1', '900e-3']) {
    assert.equal(headroom(text).error, undefined, text);
  }
  for (const [text, value] of [['0.900000000000000078', 0.9000000000000001], ['0.9000000000000001', 0.9000000000000001],
    ['0.95', 0.95], ['9.5e-1', 0.95], ['1.5', 1.5], ['123456.789e-2', 1234.56789]]) {
    const { error } = headroom(text);
    assert.equal(error?.field, 'headroom', text);
    assert.equal(error.values.value, value, text);
    assert.equal(error.values.value, Number(text), text);
    assert.match(error.message, new RegExp(`\\(got ${String(value).replace('.', '\\.')}\\)$`), text);
  }
});

test('an answer writes fractional figures as the shortest text of their double', () => {
  const named = (params) => JSON.parse(core.estimate(`{"model": {"params": ${params}}, "seq_len": 1024, "batch": 1}`)).model.name;
  assert.match(named('7.5e9'), /^Llama-like 7\.5B /);
  assert.match(named('1234567890.125'), /^Llama-like 1\.23B /);
  const text = core.launch(JSON.stringify({
    model: 'llama-3.1-8b', seq_len: 8192, batch: 4, engine: 'vllm',
    plan: { gpu: 'a100-80gb', gpus_per_instance: 1, instances: 1 },
  }));
  assert.match(text, /--gpu-memory-utilization 0\.90 /);
  assert.match(text, /leaves \d+\.\d\d GiB of KV cache/);
  const numbers = text.replace(/"(?:[^"\\]|\\.)*"/g, '').match(/-?\d[\d.eE+-]*/g);
  const fractional = numbers.filter((n) => !Number.isInteger(Number(n)));
  assert.ok(fractional.length > 0, 'the launch answer has a fractional JSON number');
  for (const n of numbers) assert.equal(n.replace(/\.0$/, ''), String(Number(n)), n);
});
