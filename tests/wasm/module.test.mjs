// The shipped module in node: dist/gpusizer.mjs with the wasm read from dist/gpusizer.wasm, and
// with the wasm the pages carry as text (dist/gpusizer-wasm.js, unpacked by web/wasm-bytes.js as
// in the browser). Same answers, errors as values, and the offline page carries the same bytes; a
// wasm that does not instantiate rejects the factory's promise (the page shows that error).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import { wasmFromText } from '../../web/wasm-bytes.js';
import { lzmaDecode } from '../../web/lzma.js';

const dist = join(dirname(fileURLToPath(import.meta.url)), '../../dist');
const { default: createGpusizer } = await import(pathToFileURL(join(dist, 'gpusizer.mjs')).href);
const { default: wasmText } = await import(pathToFileURL(join(dist, 'gpusizer-wasm.js')).href);
const wasmFile = new Uint8Array(await readFile(join(dist, 'gpusizer.wasm')));

const flavours = {
  'gpusizer.mjs + gpusizer.wasm': () => createGpusizer({ wasmBinary: wasmFile }),
  'gpusizer.mjs + gpusizer-wasm.js (the pages)': () => createGpusizer({ wasmBinary: wasmFromText(wasmText) }),
};

test('the wasm the pages carry as text is byte for byte dist/gpusizer.wasm', async () => {
  assert.deepEqual(wasmFromText(wasmText), wasmFile);
});

// The offline page packs its app and the wasm as one LZMA stream (scripts/build-page.mjs): the
// wasm part is the same bytes, and the app part is the script its CSP allows by hash.
test('the offline page carries that same wasm, after the app its CSP allows', async () => {
  const html = await readFile(join(dist, 'gpusizer.html'), 'utf8');
  const [, split, text] = /<script type="application\/octet-stream" id="gpusizer-packed" data-js="(\d+)">([^<]*)<\/script>/.exec(html)
    ?? assert.fail('dist/gpusizer.html has no packed app and wasm');
  const bytes = lzmaDecode(new Uint8Array(Buffer.from(text, 'base64')));
  assert.deepEqual(bytes.slice(Number(split)), wasmFile);
  const hash = createHash('sha256').update(bytes.subarray(0, Number(split))).digest('base64');
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)[1];
  assert.ok(policy.includes(`'sha256-${hash}'`), 'the CSP of dist/gpusizer.html does not allow the packed app');
});

// A wasm of another link (here one that imports a function this glue does not give), a truncated
// one, and bytes that are no wasm: the factory's promise rejects, rather than staying pending.
const OTHER_LINK = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0,
  2, 15, 1, 3, ...Buffer.from('env'), 7, ...Buffer.from('no_such'), 0, 0]);
test('a wasm that does not instantiate rejects the factory promise', async () => {
  assert.ok(WebAssembly.validate(OTHER_LINK));
  for (const bytes of [OTHER_LINK, wasmFile.subarray(0, wasmFile.length >> 1), new TextEncoder().encode('not wasm')]) {
    await assert.rejects(createGpusizer({ wasmBinary: bytes, printErr: () => {} }), WebAssembly.RuntimeError);
  }
});

for (const [name, load] of Object.entries(flavours)) {
  test(`${name}: the spec example's KV cache is 2 x 32 x 8 x 128 x 2 bytes x 8192 x 4`, async () => {
    const core = await load();
    const out = JSON.parse(core.estimate(JSON.stringify({ model: 'llama-3.1-8b', seq_len: 8192, batch: 4 })));
    assert.equal(out.memory.breakdown.kv_cache, 4294967296);
    assert.equal(out.model.name, 'Llama-3.1-8B');
  });

  test(`${name}: bad input comes back as an error value naming the field`, async () => {
    const core = await load();
    const cases = [
      ['{"model": "llama-3.1-8b", "batch": 0}', 'batch'],
      ['{"model": "no-such-model"}', 'model'],
      ['{"model": "llama-3.1-8b", "training": {"zero": 4}}', 'training.zero'],
      ['{"model": {"hf_config": {"model_type": "llama"}}}', 'model.hf_config.hidden_size'],
      ['{not json', 'input'],
      ['', 'input'],
    ];
    for (const [input, field] of cases) {
      const out = JSON.parse(core.estimate(input));
      assert.equal(out.error?.field, field, input);
      assert.equal(typeof out.error.message, 'string');
    }
  });

  // wasm/bindings.cpp writes ensure_ascii JSON: the browser decodes ASCII on its fast path.
  test(`${name}: answers are ASCII text with non-ASCII characters escaped, the same values once parsed`, async () => {
    const core = await load();
    const text = core.rank(JSON.stringify({ model: 'qwen2.5-72b', seq_len: 8192, batch: 8 }));
    assert.doesNotMatch(text, /[^\x00-\x7f]/);
    const sources = JSON.stringify(JSON.parse(text));
    assert.match(sources, /→/, 'a price source with an arrow, decoded');
    assert.doesNotMatch(core.estimate('{"model": "llama-3.1-8b", "engine": "vllmé"}'), /[^\x00-\x7f]/);
  });

  test(`${name}: the catalog lists what the page offers`, async () => {
    const catalog = JSON.parse((await load()).catalog());
    for (const id of ['t4', 'a100-80gb', 'h100-80gb', 'h20', 'mi300x']) assert.ok(catalog.gpus.some((g) => g.id === id), id);
    for (const id of ['llama-3.1-8b', 'qwen2.5-72b', 'deepseek-v3']) assert.ok(catalog.models.some((m) => m.id === id), id);
    assert.ok(catalog.weights.includes('nf4') && catalog.kv_cache.includes('fp8'));
    assert.ok(catalog.instances.length > 0);
  });
}
