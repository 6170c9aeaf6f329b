// `gpusizer launch` end to end: the CLI's generated ds_config.json parses with JSON.parse and the
// LLaMA-Factory and TensorRT-LLM YAML files with the `yaml` package, and they hold exactly the
// plan's numbers; each serving engine gets its own command; a plan its engine cannot run gets none.
// GPUSIZER_BIN points at another binary (default build/native/gpusizer).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = process.env.GPUSIZER_BIN ?? join(root, 'build/native/gpusizer');

const launch = (input) => JSON.parse(execFileSync(bin, ['launch', '-'], { input: JSON.stringify(input), encoding: 'utf8' }));
const file = (out, name) => out.commands.find((c) => c.filename === name).text;
const shell = (out, tool) => out.commands.find((c) => c.tool === tool && c.kind === 'shell').text;

test('ZeRO-3 full fine-tune on two 8-GPU nodes: ds_config.json and train.yaml hold the plan', () => {
  const out = launch({
    model: 'llama-3.1-70b', task: 'full', seq_len: 4096, batch: 2,
    training: { zero: 3, grad_accum: 4, grad_checkpointing: 'full', offload_optimizer: true },
    plan: { gpu: 'h100-80gb', gpus_per_instance: 8, instances: 2 },
  });
  assert.deepEqual(
    { gpus: out.plan.gpus, dp: out.plan.dp, zero: out.plan.zero, instances: out.plan.instances },
    { gpus: 16, dp: 16, zero: 3, instances: 2 });
  const ds = JSON.parse(file(out, 'ds_config.json'));
  assert.equal(ds.zero_optimization.stage, 3);
  // The HF Trainer fills "auto" from its arguments (the YAML's, train.py's flags) and refuses
  // fixed values that differ from them.
  assert.equal(ds.train_micro_batch_size_per_gpu, 'auto');
  assert.equal(ds.gradient_accumulation_steps, 'auto');
  assert.equal(ds.train_batch_size, 'auto');
  assert.deepEqual(ds.bf16, { enabled: 'auto' });
  assert.match(shell(out, 'torchrun'), /--per_device_train_batch_size 2 \\\n {2}--gradient_accumulation_steps 4/);
  assert.deepEqual(ds.zero_optimization.offload_optimizer, { device: 'cpu', pin_memory: true });
  assert.equal(ds.zero_optimization.offload_param, undefined);
  const yaml = parseYaml(file(out, 'train.yaml'));
  assert.deepEqual(
    { stage: yaml.stage, finetuning_type: yaml.finetuning_type, deepspeed: yaml.deepspeed, cutoff_len: yaml.cutoff_len,
      micro: yaml.per_device_train_batch_size, accum: yaml.gradient_accumulation_steps, bf16: yaml.bf16 },
    { stage: 'sft', finetuning_type: 'full', deepspeed: 'ds_config.json', cutoff_len: 4096, micro: 2, accum: 4, bf16: true });
  assert.match(shell(out, 'torchrun'), /--nnodes 2 \\\n {2}--nproc_per_node 8 \\\n {2}--node_rank \$NODE_RANK/);
  assert.match(shell(out, 'deepspeed'), /--num_nodes 2 \\\n {2}--num_gpus 8/);
});

test('QLoRA: the YAML asks for 4-bit bitsandbytes LoRA at the scenario rank', () => {
  const out = launch({ model: 'qwen2.5-7b', task: 'qlora', batch: 4, training: { lora_rank: 32, grad_accum: 2 }, plan: { gpu: 'l4' } });
  const yaml = parseYaml(file(out, 'train.yaml'));
  assert.equal(yaml.quantization_bit, 4);
  assert.equal(yaml.quantization_method, 'bitsandbytes');
  assert.equal(yaml.finetuning_type, 'lora');
  assert.equal(yaml.lora_rank, 32);
  assert.equal(yaml.lora_target, 'all');
  assert.equal(yaml.deepspeed, undefined);  // one GPU: no ZeRO
  assert.equal(JSON.parse(file(out, 'ds_config.json')).train_batch_size, 'auto');
  assert.equal(yaml.per_device_train_batch_size, 4);
  assert.equal(yaml.gradient_accumulation_steps, 2);
  assert.match(shell(out, 'ms-swift'), /--quant_method bnb \\\n {2}--quant_bits 4/);
});

test('a V100 plan trains in fp16 with dynamic loss scaling, and says so', () => {
  const out = launch({ model: 'qwen2.5-7b', task: 'lora', gpu: 'v100-32gb', gpus: 2, training: { zero: 2 } });
  assert.equal(out.plan.dtype, 'float16');
  assert.ok(out.warning_details.some((w) => w.code === 'launch_fp16'));
  const ds = JSON.parse(file(out, 'ds_config.json'));
  assert.equal(ds.bf16, undefined);
  assert.equal(ds.fp16.enabled, 'auto');  // the Trainer's --fp16 (the YAML's fp16: true) fills it
  assert.equal(ds.fp16.loss_scale, 0);
  const yaml = parseYaml(file(out, 'train.yaml'));
  assert.equal(yaml.fp16, true);
  assert.equal(yaml.bf16, undefined);
});

test('serving: the cheapest A10 plan for Qwen2.5-72B AWQ, one vLLM line with the plan numbers', () => {
  const out = launch({ model: 'qwen2.5-72b', weights: 'awq-int4', batch: 8, seq_len: 8192, filters: { gpus: ['a10'] } });
  assert.equal(out.plan.gpu, 'a10');
  assert.equal(out.plan.source, 'ranking');
  const vllm = shell(out, 'vllm');
  assert.match(vllm, new RegExp(`--tensor-parallel-size ${out.plan.tp} `));
  assert.match(vllm, /--quantization awq/);
  const fraction = Number(vllm.match(/--gpu-memory-utilization ([0-9.]+)/)[1]);
  assert.ok(fraction > 0 && fraction <= 0.95, `fraction ${fraction}`);
});

test('bad plan input exits 2 naming the field', () => {
  assert.throws(
    () => execFileSync(bin, ['launch', '-'], { input: '{"model":"qwen2.5-7b","plan":{"gpu":"a10","cores":2}}', stdio: 'pipe' }),
    (e) => e.status === 2 && /plan\.cores/.test(e.stderr.toString()));
});

test('engines: vLLM Marlin at the default 0.90, the TensorRT-LLM fp8 YAML parses, LMDeploy int8 KV, llama.cpp slots', () => {
  const vllm = launch({ model: 'qwen2.5-7b', weights: 'awq-int4', gpu: 'l4', seq_len: 4096, batch: 4 });
  assert.match(shell(vllm, 'vllm'), /^vllm serve Qwen\/Qwen2\.5-7B-Instruct-AWQ /);
  assert.match(shell(vllm, 'vllm'), /--gpu-memory-utilization 0\.90 /);
  assert.match(shell(vllm, 'vllm'), /--quantization awq_marlin /);
  assert.ok(vllm.notes.some((n) => /concurrent sequences of 4096 tokens/.test(n)));

  const trt = launch({ model: 'llama-3.1-8b', engine: 'tensorrt-llm', kv_cache: 'fp8', gpu: 'h100-80gb' });
  assert.deepEqual(parseYaml(file(trt, 'extra_llm_api_options.yaml')), { kv_cache_config: { dtype: 'fp8' } });
  assert.match(shell(trt, 'tensorrt-llm'), /--extra_llm_api_options extra_llm_api_options\.yaml/);

  const lmd = launch({ model: 'qwen2.5-7b', engine: 'lmdeploy', kv_cache: 'int8', gpu: 'a10', batch: 8 });
  assert.match(shell(lmd, 'lmdeploy'), /--backend turbomind \\\n {2}--tp 1 \\\n/);
  assert.match(shell(lmd, 'lmdeploy'), /--quant-policy 8/);

  const cpp = launch({ model: 'qwen2.5-7b', engine: 'llama.cpp', weights: 'q4_k_m', gpu: 'rtx4090', batch: 3, seq_len: 4096 });
  assert.match(shell(cpp, 'llama.cpp'), /-c 12288 \\\n {2}-np 3 \\\n/);
});

test('a plan its engine cannot run gets no command and says why', () => {
  const out = launch({ model: 'qwen2.5-7b', engine: 'transformers', gpu: 'a10', gpus: 2, tp: 2 });
  assert.deepEqual(out.commands, []);
  assert.ok(out.warning_details.some((w) => w.code === 'launch_plan_invalid' && /tensor parallelism/.test(w.message)));
});
