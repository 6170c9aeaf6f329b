// The native CLI and the shipped wasm module give the same JSON for the same scenarios (numbers
// equal to 1e-12 relative), and the same error for the same bad input. The CLI is
// build/native/gpusizer (scripts/build makes it; GPUSIZER_CLI points elsewhere).
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

// Llama-3.2-1B's config.json (meta-llama/Llama-3.2-1B), the fields the core reads.
const LLAMA_32_1B = {
  architectures: ['LlamaForCausalLM'], model_type: 'llama', hidden_size: 2048, intermediate_size: 8192,
  num_attention_heads: 32, num_hidden_layers: 16, num_key_value_heads: 8, head_dim: 64, vocab_size: 128256,
  tie_word_embeddings: true, max_position_embeddings: 131072, rms_norm_eps: 1e-5, torch_dtype: 'bfloat16',
};

// Dense, GQA, MoE and MLA models; every family of weight format; TP and PP; a size-only model and
// an imported config; cards with and without bf16 and fp8.
const SCENARIOS = [
  { model: 'llama-3.1-8b', seq_len: 8192, batch: 4 },
  { model: 'qwen2.5-7b', gpu: 'a100-80gb', batch: 16, seq_len: 4096, kv_cache: 'fp8' },
  { model: 'deepseek-v3', weights: 'fp8', gpu: 'h200', gpus: 8, tp: 8, seq_len: 32768, batch: 8 },
  { model: 'mixtral-8x7b', weights: 'awq-int4', gpu: 'a10', gpus: 2, tp: 2 },
  { model: 'qwen3-30b-a3b', weights: 'gptq-int4', gpu: 'l40s', seq_len: 16384 },
  { model: 'llama-2-70b', weights: 'nf4', engine: 'transformers', gpu: 'a100-80gb' },
  { model: 'llama-3.1-8b', engine: 'llama.cpp', weights: 'q4_k_m', gpu: 'rtx4090', seq_len: 8192 },
  { model: { params: 7e9 }, gpu: 't4', weights: 'int8' },
  { model: { hf_config: LLAMA_32_1B }, batch: 2, gpu: 'l4' },
  { model: 'gemma-2-27b', gpu: 'h100-80gb', weights: 'fp8', kv_cache: 'fp8', seq_len: 8192, batch: 32 },
  { model: 'chatglm3-6b', gpu: 'v100-32gb', weights: 'bf16' },
  { model: 'qwen2.5-72b', gpu: 'mi300x', gpus: 2, pp: 2, flash_attention: false, seq_len: 4000, prompt_tokens: 3000 },
];

const BAD = [
  { model: 'llama-3.1-8b', batch: 0 },
  { model: 'llama-3.1-8b', gpus: 3, tp: 3 },
  { model: 'llama-3.1-8b', gpu: 'no-such-gpu' },
  { model: 'llama-3.1-8b', weights: 'q4_k_m' },
];

function runCli(input) {
  assert.ok(existsSync(cli), `${cli} is missing: build it first (scripts/build)`);
  return spawnSync(cli, ['estimate', '-'], { input: JSON.stringify(input), encoding: 'utf8' });
}

// Deep equality with numbers compared to a relative tolerance.
function assertClose(actual, expected, path = '') {
  if (typeof expected === 'number') {
    const scale = Math.max(Math.abs(expected), Math.abs(actual), Number.MIN_VALUE);
    assert.ok(Math.abs(actual - expected) / scale <= 1e-12, `${path}: ${actual} vs ${expected}`);
  } else if (expected && typeof expected === 'object') {
    assert.deepEqual(Object.keys(actual ?? {}).sort(), Object.keys(expected).sort(), `${path}: keys`);
    for (const key of Object.keys(expected)) assertClose(actual[key], expected[key], `${path}.${key}`);
  } else {
    assert.equal(actual, expected, path);
  }
}

test('CLI and wasm give the same estimate for a dozen varied scenarios', () => {
  const cli = runCli(SCENARIOS);
  assert.equal(cli.status, 0, cli.stderr);
  const fromCli = JSON.parse(cli.stdout);
  const fromWasm = JSON.parse(core.estimate(JSON.stringify(SCENARIOS)));
  assert.equal(fromCli.length, SCENARIOS.length);
  fromCli.forEach((expected, i) => assertClose(fromWasm[i], expected, `[${i}] ${JSON.stringify(SCENARIOS[i].model)}`));
});

test('CLI and wasm refuse the same bad input with the same field and message', () => {
  for (const scenario of BAD) {
    const cli = runCli(scenario);
    assert.equal(cli.status, 2, JSON.stringify(scenario));
    const { error } = JSON.parse(core.estimate(JSON.stringify(scenario)));
    assert.equal(cli.stderr.split('\n')[0], `error: ${error.field}: ${error.message}`);
  }
});
