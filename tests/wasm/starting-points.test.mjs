// The tabs' starting points are the core's (core/src/scenario/starting_points.cpp, the catalog's
// `starting_points`): the page starts each tab from exactly those, keeps no copy of them in
// web/state.js, can write each of their keys into a link, and reads the links its earlier
// builds wrote (when state.js held the starting points itself) as the same scenarios.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { wasmFromText } from '../../web/wasm-bytes.js';
import { appliesTo, field } from '../../web/fields.js';
import { defaults, fromHash, setStartingPoints, switchTask, toHash } from '../../web/state.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const dist = join(root, 'dist');
const { default: createGpusizer } = await import(pathToFileURL(join(dist, 'gpusizer.mjs')).href);
const { default: wasmText } = await import(pathToFileURL(join(dist, 'gpusizer-wasm.js')).href);
const module = await createGpusizer({ wasmBinary: await wasmFromText(wasmText) });
const catalog = JSON.parse(module.catalog());
const estimate = (s) => JSON.parse(module.estimate(JSON.stringify(s)));

// The dotted keys of a nested object: {training: {zero: 3}} -> ['training.zero'].
const keys = (obj, prefix = '') => Object.entries(obj).flatMap(([k, v]) =>
  (v && typeof v === 'object' && !Array.isArray(v) ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));
const at = (obj, key) => key.split('.').reduce((o, part) => o?.[part], obj);

test('state.js asks for the starting points before it reads a link', async () => {
  // A fresh copy of the module, before any setStartingPoints.
  const fresh = await import(`${pathToFileURL(join(root, 'web/state.js')).href}?fresh`);
  assert.throws(() => fresh.defaults('inference'), /setStartingPoints/);
  assert.throws(() => fresh.fromHash('#task=full'), /setStartingPoints/);
});

setStartingPoints(catalog.starting_points);

test('every tab starts from the catalog\'s starting point, which the core accepts', () => {
  assert.deepEqual(Object.keys(catalog.starting_points).sort(), [...catalog.tasks].sort());
  for (const task of catalog.tasks) {
    const start = defaults(task);
    assert.equal(start.task, task);
    for (const key of keys(catalog.starting_points[task])) {
      assert.deepEqual(at(start, key), at(catalog.starting_points[task], key), `${task}: ${key}`);
    }
    // Nothing else of the workload: the rest is the model and the GPU the page opens on.
    assert.deepEqual(keys(start).filter((k) => !at(catalog.starting_points[task], k)).sort(), ['gpu', 'model', 'task']);
    assert.equal(estimate(start).error, undefined, task);
    // A tab switch lands on the same starting point.
    assert.deepEqual(switchTask(defaults('inference'), task), start, task);
  }
});

test('every key of a starting point is a field of its tab, so that a link can write a change to it', () => {
  for (const task of catalog.tasks) {
    for (const key of keys(catalog.starting_points[task])) {
      assert.ok(field(key) && appliesTo(field(key), task), `${task}: ${key}`);
    }
  }
});

test('state.js keeps no copy of a starting point', () => {
  const source = readFileSync(join(root, 'web/state.js'), 'utf8').replace(/^\s*\/\/.*$/gm, '');
  const ids = new Set(catalog.tasks.flatMap((task) => keys(catalog.starting_points[task])
    .map((key) => at(catalog.starting_points[task], key)).filter((v) => typeof v === 'string')));
  const found = [...source.matchAll(/(['"`])([^'"`\n]*)\1/g)].map((m) => m[2]).filter((s) => ids.has(s));
  assert.deepEqual(found, []);
  assert.doesNotMatch(source, /\b(seq_len|batch|lora_rank)\s*:\s*\d/);
});

// Written by the page when web/state.js held the starting points (TASK_DEFAULTS): each link and
// the scenario it meant then. Changing a starting point changes what these links mean.
const LINKS = [
  ["",{"model":"llama-3.1-8b","gpu":"a100-80gb","task":"inference","engine":"vllm","weights":"bf16","kv_cache":"bf16","seq_len":4096,"batch":8}],
  ["model=qwen2.5-7b&seq_len=8192&batch=4&gpu=l40s",{"model":"qwen2.5-7b","gpu":"l40s","task":"inference","engine":"vllm","weights":"bf16","kv_cache":"bf16","seq_len":8192,"batch":4}],
  ["kv_cache=fp8",{"model":"llama-3.1-8b","gpu":"a100-80gb","task":"inference","engine":"vllm","weights":"bf16","kv_cache":"fp8","seq_len":4096,"batch":8}],
  ["task=full",{"model":"llama-3.1-8b","gpu":"a100-80gb","task":"full","engine":"deepspeed","weights":"bf16","seq_len":2048,"batch":4,"training":{"optimizer":"adamw","grad_checkpointing":"full","zero":3}}],
  ["task=full&seq_len=4096&training.zero=",{"model":"llama-3.1-8b","gpu":"a100-80gb","task":"full","engine":"deepspeed","weights":"bf16","seq_len":4096,"batch":4,"training":{"optimizer":"adamw","grad_checkpointing":"full"}}],
  ["task=lora&training.lora_rank=32",{"model":"llama-3.1-8b","gpu":"a100-80gb","task":"lora","engine":"transformers","weights":"bf16","seq_len":2048,"batch":4,"training":{"optimizer":"adamw","grad_checkpointing":"full","lora_rank":32,"lora_targets":"all-linear"}}],
  ["task=qlora&training.optimizer=adamw",{"model":"llama-3.1-8b","gpu":"a100-80gb","task":"qlora","engine":"transformers","weights":"nf4","seq_len":2048,"batch":4,"training":{"optimizer":"adamw","grad_checkpointing":"full","lora_rank":16,"lora_targets":"all-linear"}}],
  ["task=pretrain&training.grad_checkpointing=full",{"model":"llama-3.1-8b","gpu":"a100-80gb","task":"pretrain","engine":"megatron","weights":"bf16","seq_len":4096,"batch":1,"training":{"optimizer":"adamw","grad_checkpointing":"full","zero":1}}],
  ["task=lora&gpu=h100-sxm&gpus=2",{"model":"llama-3.1-8b","gpu":"h100-sxm","task":"lora","engine":"transformers","weights":"bf16","seq_len":2048,"batch":4,"training":{"optimizer":"adamw","grad_checkpointing":"full","lora_rank":16,"lora_targets":"all-linear"},"gpus":2}],
];

test('links of earlier builds read back as the same scenarios, and are written the same', () => {
  for (const [hash, scenario] of LINKS) {
    const link = fromHash(`#${hash}`);
    assert.equal(link.problem, undefined, hash);
    assert.deepEqual(link.scenario, scenario, hash);
    assert.equal(toHash(scenario), hash, hash);
  }
});
