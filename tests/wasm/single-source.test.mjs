// One source of truth: the page takes its lists of choices (tasks, engines, optimizers,
// checkpointing modes, LoRA targets, ZeRO stages, currencies, formats), its defaults, the lookup
// table's settings and each table cell's scenario from the core (catalog() and the table answer),
// not from copies in web/fields.js and web/views/lookup.js. This fails when such a copy appears
// there again, and checks that what fields.js offers is what catalog() says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { wasmFromText } from '../../web/wasm-bytes.js';
import { FIELDS, defaultOf } from '../../web/fields.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const dist = join(root, 'dist');
const { default: createGpusizer } = await import(pathToFileURL(join(dist, 'gpusizer.mjs')).href);
const { default: wasmText } = await import(pathToFileURL(join(dist, 'gpusizer-wasm.js')).href);
const module = await createGpusizer({ wasmBinary: wasmFromText(wasmText) });
const catalog = JSON.parse(module.catalog());
const call = (command, input) => JSON.parse(module[command](JSON.stringify(input)));

const FILES = ['web/fields.js', 'web/views/lookup.js'];
const LITERAL = /(['"`])((?:(?!\1)[^\\\n]|\\.)*)\1/g;
const literals = (file) => [...readFileSync(join(root, file), 'utf8')
  .replace(/^\s*\/\/.*$/gm, '')  // comments may name ids
  .matchAll(LITERAL)].map((m) => m[2]);

// The catalog's lists of ids, less the task ids (fields.js says which tasks use a key: a layout
// rule, not a list of choices) and ids so generic that they are words of the code too.
const LISTS = {
  engines: [...catalog.engines.inference, ...catalog.engines.training],
  optimizers: catalog.optimizers,
  checkpointing: catalog.checkpointing.filter((id) => id !== 'none' && id !== 'full'),
  lora_targets: catalog.lora_targets,
  currencies: catalog.currencies,
  kv_cache: catalog.kv_cache,
  weights: catalog.weights,
  table_columns: call('table', { models: ['qwen2.5-0.5b'] }).columns.map((c) => c.id),
};

test('the catalog has the lists the page takes', () => {
  for (const key of ['tasks', 'engines', 'optimizers', 'checkpointing', 'lora_targets', 'zero_stages', 'currencies',
    'defaults', 'table_settings', 'weights', 'kv_cache']) {
    assert.ok(catalog[key], key);
  }
  assert.deepEqual(Object.keys(catalog.defaults).sort(), [...catalog.tasks].sort());
  assert.equal(catalog.defaults.qlora.weights, 'nf4');
  assert.equal(catalog.defaults.lora.training.grad_checkpointing, 'full');
  assert.equal(catalog.defaults.inference.engine, 'vllm');
});

for (const file of FILES) {
  test(`${file} holds no copy of a catalog list`, () => {
    const found = literals(file);
    const copies = Object.entries(LISTS).flatMap(([list, ids]) =>
      ids.filter((id) => found.includes(id)).map((id) => `${list}: '${id}'`));
    assert.deepEqual(copies, []);
  });
  test(`${file} holds no list of ZeRO stages and no defaults`, () => {
    const source = readFileSync(join(root, file), 'utf8');
    assert.doesNotMatch(source, /\[\s*0\s*,\s*1\s*,\s*2\s*,\s*3\s*\]/);
    assert.doesNotMatch(source, /\bdef:/);
  });
}

test('fields.js offers exactly the catalog\'s choices and defaults', () => {
  const expected = {
    engine: (task) => catalog.engines[task === 'inference' ? 'inference' : 'training'],
    'training.optimizer': () => catalog.optimizers,
    'training.grad_checkpointing': () => catalog.checkpointing,
    'training.lora_targets': () => catalog.lora_targets,
    'training.zero': () => catalog.zero_stages,
    'pricing.currency': () => catalog.currencies,
    weights: () => catalog.weights,
    kv_cache: () => catalog.kv_cache,
  };
  for (const task of catalog.tasks) {
    for (const [key, list] of Object.entries(expected)) {
      const f = FIELDS.find((x) => x.key === key);
      assert.deepEqual(f.options(catalog, task), list(task), `${key} (${task})`);
    }
    for (const key of ['engine', 'weights', 'seq_len', 'batch', 'training.optimizer', 'training.grad_checkpointing', 'training.zero']) {
      const f = FIELDS.find((x) => x.key === key);
      const want = key.split('.').reduce((o, p) => o?.[p], catalog.defaults[task]);
      assert.deepEqual(defaultOf(f, task, catalog, 'USD'), want, `${key} (${task})`);
    }
  }
});

test('each fitting table cell carries the scenario it ranked, and that scenario ranks to the same plan', () => {
  const table = call('table', { models: ['qwen2.5-7b'] });
  for (const [i, cell] of table.rows[0].cells.entries()) {
    if (!cell.fits) continue;
    const s = cell.scenario;
    assert.equal(s.model, 'qwen2.5-7b');
    assert.equal(s.gpu, cell.gpu, table.columns[i].id);
    assert.equal(s.gpus, cell.gpus, table.columns[i].id);
    const estimate = call('estimate', s);
    assert.ok(!estimate.error, JSON.stringify(estimate.error));
    assert.equal(estimate.memory.per_gpu_bytes, cell.per_gpu_bytes, table.columns[i].id);
  }
});
