// A case -> the gpusizer scenario that describes it: the GPU, weights format, model (a preset or
// the case's architecture), engine, and the engine and training options the case states.

import { VERSIONS } from './core.mjs';

// Old calibration cases name GPUs in free text; new cases carry gpu_id.
const GPU_IDS = [
  [/A100[- ]SXM 80GB|A100 80GB|A100 \(80GB/i, 'a100-80gb'],
  [/RTX 4090/i, 'rtx4090'],
  [/RTX 3090/i, 'rtx3090'],
  [/H100/i, 'h100-80gb'],
];
export function gpuId(c, catalog) {
  if (c.gpu_id) return catalog.has(c.gpu_id) ? c.gpu_id : null;
  for (const [re, id] of GPU_IDS) if (re.test(c.gpu || '')) return id;
  return null;
}

// Case precision -> scenario `weights`. Calibration names first, then the schema's gpusizer ids.
export const WEIGHTS = { 'bf16': 'bf16', 'gptq-int8': 'gptq-int8', 'gptq-int4': 'gptq-int4', 'awq-int4': 'awq-int4',
  'GGUF F16': 'fp16', 'GGUF Q8_0': 'q8_0', 'GGUF Q4_0': 'q4_0', 'fp16 mixed': 'fp16', 'bf16 mixed': 'bf16' };
const WEIGHT_IDS = new Set(['fp32', 'bf16', 'fp16', 'fp8', 'int8', 'int4', 'nf4', 'gptq-int8', 'gptq-int4', 'awq-int4',
  'q8_0', 'q6_k', 'q5_k_m', 'q5_k_s', 'q5_0', 'q4_k_m', 'q4_k_s', 'q4_0', 'q3_k_m', 'q2_k']);
export const weightsOf = (p) => WEIGHTS[p] || (WEIGHT_IDS.has(p) ? p : null);
const KV_METRICS = new Set(['llamacpp_kv_buffer', 'vllm_kv_cache_tokens', 'vllm_gpu_blocks', 'sglang_kv_tokens']);
const KV_IDS = new Set(['bf16', 'fp16', 'fp8', 'int8', 'int4']);

// The preset the case names, or the one whose architecture equals the case's, else explicit fields.
export function modelFor(c, presets) {
  if (c.model_id && presets.some((p) => p.id === c.model_id)) return c.model_id;
  const a = c.arch;
  if (!a) return null;
  const same = (p) => p.layers === a.layers && p.hidden === a.hidden && p.heads === a.heads &&
    p.kv_heads === a.kv_heads && p.intermediate === a.intermediate && p.vocab === a.vocab && !a.experts &&
    // A stated tying that differs from the preset's (LitGPT keeps a separate lm_head) is a model of its own.
    (a.tied_embeddings === undefined || !!a.tied_embeddings === !!p.tied_embeddings);
  const preset = presets.find(same);
  if (preset) return preset.id;
  // GPT-style models of the Megatron papers: 4h GELU MLP (the spec's "plain" MLP).
  const plain = a.intermediate === 4 * a.hidden && a.vocab === 51200;
  const m = { name: c.model, layers: a.layers, hidden: a.hidden, heads: a.heads, kv_heads: a.kv_heads,
    head_dim: a.head_dim || a.hidden / a.heads, intermediate: a.intermediate, vocab: a.vocab,
    tied_embeddings: !!a.tied_embeddings, mlp: a.mlp || (plain ? 'plain' : 'gated') };
  for (const k of ['experts', 'experts_per_token', 'shared_experts', 'expert_intermediate', 'dense_layers']) if (a[k] !== undefined) m[k] = a[k];
  return m;
}

// torchtune's Llama 3.2 3B "optimization flags" rows: each row adds one technique to the previous.
const TORCHTUNE_STACK = ['Baseline', 'Packed Dataset', 'Compile', 'Chunked Cross Entropy', 'Activation Checkpointing',
  'Fuse optimizer step into backward', 'Activation Offloading', '8-bit AdamW', 'LoRA', 'QLoRA'];

function stackTechniques(c) {
  const m = /stack up to '(?:\+ )?([^']+)'/.exec(c.conditions || '');
  if (!m) return null;
  const upto = TORCHTUNE_STACK.indexOf(m[1]);
  let used = TORCHTUNE_STACK.slice(0, upto + 1);
  if (c.workload !== 'finetune-full') used = used.filter((t) => t !== 'Fuse optimizer step into backward' && t !== '8-bit AdamW');
  return used;
}

// Techniques a scenario cannot express: the case is reported, not scored.
export function notExpressible(c) {
  const cond = c.conditions || '';
  const stack = stackTechniques(c);
  if (stack) {
    if (stack.length === 1) return 'unpacked, padding-limited batches: the tokens per step are not known';
    if (stack.includes('Fuse optimizer step into backward')) return 'optimizer step fused into the backward (no full gradient buffer) is not a scenario option';
    if (stack.includes('Activation Offloading')) return 'activation offloading to CPU is not a scenario option';
    if (stack.includes('Chunked Cross Entropy')) return 'chunked cross-entropy (logits upcast chunk by chunk) is not a scenario option';
    return null;
  }
  if (/optimizer_in_bwd/.test(cond)) return 'optimizer step fused into the backward (optimizer_in_bwd) is not a scenario option';
  return null;
}

export function torchtuneScenario(c, model) {
  const cond = c.conditions;
  const stack = stackTechniques(c) || [];
  const task = { 'finetune-full': 'full', 'finetune-lora': 'lora', 'finetune-qlora': 'qlora' }[c.workload];
  const gpus = c.gpu_count || 1;
  const training = { master_weights: false };  // torchtune trains in pure bf16
  // Checkpointing as stated, or as the stack says; otherwise the scenario default (full for LoRA).
  if (/act\. ckpt|activation checkpointing/i.test(cond)) training.grad_checkpointing = 'full';
  if (stackTechniques(c)) training.grad_checkpointing = stack.includes('Activation Checkpointing') ? 'full' : 'none';
  if (/PagedAdamW8bit/.test(cond)) training.optimizer = 'paged-adamw-8bit';
  if (stack.includes('8-bit AdamW')) training.optimizer = 'adamw-8bit';
  const rank = /r=(\d+)/.exec(cond);
  if (rank && task !== 'full') training.lora_rank = Number(rank[1]);
  const s = { model, task, engine: gpus > 1 ? 'fsdp' : 'transformers', batch: c.batch, seq_len: c.seq_len, gpus, training };
  if (gpus > 1) training.zero = 3;  // FSDP FULL_SHARD
  if (/cpu_offload|CPU offload/i.test(cond)) Object.assign(training, { offload_optimizer: true, offload_params: true });
  return s;
}

// Framework text -> scenario engine.
export function engineOf(c, training) {
  const f = (c.framework || '').toLowerCase();
  if (!training) {
    for (const e of ['vllm', 'sglang', 'lmdeploy', 'llama.cpp', 'tensorrt-llm']) if (f.includes(e)) return e;
    if (/llama-cpp|ollama|gguf/.test(f)) return 'llama.cpp';
    // TGI: a Rust router batching continuously in front of Python shards that run vLLM's PagedAttention
    // kernels and flash-attention (TGI docs, "PagedAttention"): a vLLM-class server, not generate().
    if (/text-generation-inference|\btgi\b/.test(f)) return 'vllm';
    return 'transformers';
  }
  const o = c.engine_options || {};
  if (/megatron/.test(f)) return 'megatron';
  if (/fsdp/.test(f) || o.fsdp) return 'fsdp';
  if (/deepspeed/.test(f) || o.zero !== undefined) return 'deepspeed';
  return 'transformers';
}

// The engine version the case's framework names ("vLLM v0.10.1.1", "transformers 4.40.2") when the
// core checked a version covering it (catalog.engine_versions releases: the name or a patch of it):
// a user states it as the scenario's engine_version. Frameworks naming only a date, or a release
// no checked version covers, state none (the core takes its newest checked).
const VERSION_NAMES = { 'vllm': 'vllm', 'sglang': 'sglang', 'lmdeploy': 'lmdeploy', 'tensorrt-llm': 'tensorrt-llm',
  'transformers': 'transformers', 'deepspeed': 'deepspeed', 'megatron': 'megatron(?:-lm)?(?: core_v)?' };
export function engineVersionOf(c, engine) {
  const name = VERSION_NAMES[engine];
  const m = name && new RegExp(`\\b${name}\\s*v?(\\d+\\.[\\dx]+(?:\\.[\\dx]+)*(?:\\.post\\d+)?)`, 'i').exec(c.framework || '');
  if (!m) return null;
  const text = m[1].toLowerCase();
  const covers = (r) => text === r || text.startsWith(`${r}.`);
  const row = (VERSIONS.get(engine) || []).find((v) => v.releases.some(covers));
  return row ? text : null;
}

const OPTIMIZERS = { adamw: 'adamw', adamw_torch: 'adamw', adamw_torch_fused: 'adamw', paged_adamw_32bit: 'adamw', adamw_hf: 'adamw', adam: 'adamw', 'adamw-8bit': 'adamw-8bit',
  adamw_8bit: 'adamw-8bit', adamw_bnb_8bit: 'adamw-8bit', paged_adamw_8bit: 'paged-adamw-8bit', 'paged-adamw-8bit': 'paged-adamw-8bit',
  sgd: 'sgd', adafactor: 'adafactor' };

// A case in the data/validation schema (workload, precision, engine_options, gpu_id ...) -> scenario.
export function genericScenario(c, model, catalog) {
  const o = c.engine_options || {};
  const task = { inference: 'inference', serving: 'inference', full: 'full', lora: 'lora', qlora: 'qlora', pretrain: 'pretrain' }[c.workload];
  if (!task) return { skip: `workload "${c.workload}" not mapped` };
  const training = task !== 'inference';
  const s = { model, task, engine: engineOf(c, training) };
  const version = engineVersionOf(c, s.engine);
  if (version) s.engine_version = version;
  if (c.precision) {
    const w = weightsOf(c.precision);
    // The KV cache's size does not depend on the weights format: KV figures are scored without it.
    if (!w && !KV_METRICS.has(c.metric)) return { skip: `precision "${c.precision}" is not a gpusizer weights format` };
    if (w) s.weights = w;
  }
  if (c.kv_cache && KV_IDS.has(c.kv_cache)) s.kv_cache = c.kv_cache;
  const gpu = gpuId(c, catalog);
  if (gpu) s.gpu = gpu;
  // Figures summed over the GPUs of a device_map split count the whole model once: one virtual device.
  const n = o.summed_over_gpus ? 1 : c.gpu_count || 1;
  s.gpus = n;
  if (o.tp) s.tp = o.tp;
  if (o.pp) s.pp = o.pp;
  // Megatron's expert-parallel degree, as the source states it (scenario ep: Megatron-LM only).
  if (o.ep > 1 && s.engine === 'megatron') s.ep = o.ep;
  return training ? trainingScenario(s, c, o, task) : { scenario: inferenceScenario(s, c, o) };
}

// Adds engine options to the scenario's (a later key replaces an earlier one of the same name).
const addEngineOptions = (s, more) => { s.engine_options = { ...(s.engine_options || {}), ...more }; };

function inferenceScenario(s, c, o) {
  servingEngineOptions(s, c, o);
  generateOptions(s, c);
  quantizedKernelOptions(s, c, o);
  s.batch = c.batch || 1;
  const seq = c.seq_len || (c.input_len || 0) + (c.output_len || 0) || o.max_model_len;
  if (seq) s.seq_len = seq;
  if (c.input_len !== undefined) s.prompt_tokens = c.input_len;
  if (c.output_len !== undefined) s.output_tokens = c.output_len;
  return s;
}

function servingEngineOptions(s, c, o) {
  // vLLM / SGLang start-up flags the log states (scenario "engine_options").
  const eo = {};
  for (const k of ['gpu_memory_utilization', 'max_model_len', 'max_num_seqs', 'max_num_batched_tokens', 'enforce_eager', 'block_size', 'mem_fraction_static', 'dp_attention']) {
    if (o[k] !== undefined && o[k] !== null) eo[k] = o[k];
  }
  // vLLM's V0 engine (as the case's framework names it) defaults differ from V1's: up to a
  // max_model_len of 32768 chunked prefill is off and the profile runs max(max_model_len, 2048)
  // tokens with max_num_seqs 256 (vllm/engine/arg_utils.py _set_default_args_v0, config.py
  // SchedulerConfig). Longer contexts turn chunked prefill on (its budget changed across 0.6-0.8).
  const v0 = s.engine === 'vllm' && /\bv0 engine\b/i.test(c.framework || '');
  if (v0 && eo.max_num_batched_tokens === undefined && eo.max_model_len && eo.max_model_len <= 32768) {
    eo.max_num_batched_tokens = Math.max(eo.max_model_len, 2048);
    if (eo.max_num_seqs === undefined) eo.max_num_seqs = 256;
  }
  // vLLM's sampler path (engine_options.sampler) as the case's log or version shows it: each
  // vLLM case of the data carries it in extra.sampler with its evidence in extra.sampler_evidence.
  if (s.engine === 'vllm' && c.extra && c.extra.sampler) eo.sampler = c.extra.sampler;
  // Which TP worker's log line the figure is (engine_options.tp_worker), where the case's extra states it.
  if (s.engine === 'vllm' && c.extra && c.extra.tp_worker) eo.tp_worker = c.extra.tp_worker;
  // A vLLM log that names no version but counts non-torch memory as device used minus torch's
  // (extra.non_torch_accounting "device", with its evidence: the 0.6.3-0.6.4 log line) is of the
  // release that counts it so (engine_version 0.6.3, core engine_versions.cpp).
  if (s.engine === 'vllm' && !s.engine_version && c.extra && c.extra.non_torch_accounting === 'device') s.engine_version = '0.6.3';
  if (Object.keys(eo).length && ['vllm', 'sglang'].includes(s.engine)) s.engine_options = eo;
  // Tensor-parallel all-reduces through NCCL (vLLM --disable-custom-all-reduce, or an engine whose layers call
  // NCCL directly, as the case's measures cite): any serving engine.
  if (o.disable_custom_all_reduce === true) addEngineOptions(s, { disable_custom_all_reduce: true });
}

// transformers generate() paths by the version (or date) the case's framework states, as the
// engine_version whose facts they are (core engine_versions.cpp): before 4.45 (2024-09) the prefill
// computed fp32 logits for every prompt position (4.36-4.44 row "4.44"); before 4.36 (2023-12) the
// KV cache was a tuple copied each decode step as well (row "4.35"). A version the framework names
// is already the scenario's (engineVersionOf); this dates the others. Figures sampled between
// decode steps (max_sampled_memory_allocated) see neither transient: left at the default.
function generateOptions(s, c) {
  if (s.engine !== 'transformers' || s.engine_version || c.metric === 'max_sampled_memory_allocated') return;
  const f = c.framework || '';
  const v = /transformers (\d+)\.(\d+)/i.exec(f);
  const dt = /transformers|optimum/i.test(f) && /\((\d{4})-(\d{2})/.exec(f);
  const key = v ? Number(v[1]) * 1000 + Number(v[2]) : null;
  const month = dt ? Number(dt[1]) * 12 + Number(dt[2]) : null;
  const before = (ver, year, mon) => (key !== null ? key < ver : month !== null && month < year * 12 + mon);
  // AutoAWQ 0.1.x names no transformers version: its README benchmarks ran at @5c7e368
  // (2023-11-05, setup.py transformers>=4.35.0, then the newest), before 4.36 (mem-autoawq-readme notes).
  const awq01 = key === null && month === null && /AutoAWQ 0\.1\./.test(f);
  if (before(4036, 2023, 12) || awq01) s.engine_version = '4.35';
  else if (before(4045, 2024, 9)) s.engine_version = '4.44';
}

function quantizedKernelOptions(s, c, o) {
  // AutoAWQ: from_quantized(fuse_layers=True) and the checkpoint's kernel version (GEMM / GEMV), as the
  // case states them (engine_options.fused_layers / awq_kernel, docs/speed.md "AutoAWQ").
  if (s.engine === 'transformers' && s.weights === 'awq-int4') {
    const awq = {};
    if (o.fuse_layers === true) awq.fused_layers = true;
    if (/^gem[mv]$/i.test(String(o.awq_kernel || ''))) awq.awq_kernel = String(o.awq_kernel).toLowerCase();
    if (Object.keys(awq).length) addEngineOptions(s, awq);
  }
  // Quantized kernels' buffers and the checkpoint's group size, as the case states them
  // (engine_options.quant_kernel, act_order, group_size ...; docs/methodology.md "Quantized-kernel buffers").
  if (s.engine === 'transformers' && ['gptq-int4', 'gptq-int8', 'awq-int4'].includes(s.weights)) {
    const q = {};
    if (typeof o.quant_kernel === 'string') q.quant_kernel = o.quant_kernel;
    if (typeof o.act_order === 'boolean') q.act_order = o.act_order;
    if (Number.isInteger(o.group_size)) q.group_size = o.group_size;
    for (const k of ['quant_max_input_len', 'quant_max_batch_size']) if (Number.isInteger(o[k])) q[k] = o[k];
    if (Object.keys(q).length) addEngineOptions(s, q);
  }
  // Which linears the checkpoint quantizes (engine_options.quant_scope: Meta's FBGEMM FP8 405B keeps
  // attention and the first and last layers 16-bit; docs/methodology.md "Quantized-kernel buffers").
  if (typeof o.quant_scope === 'string') addEngineOptions(s, { quant_scope: o.quant_scope });
  // A figure summed over the GPUs of a device_map split: each device's buffers and peak count once each.
  if (s.engine === 'transformers' && o.summed_over_gpus && (c.gpu_count || 1) > 1) {
    addEngineOptions(s, { summed_devices: c.gpu_count });
  }
}

function trainingScenario(s, c, o, task) {
  const t = {};
  s.batch = o.micro_batch || c.batch || 1;
  if (c.seq_len) s.seq_len = c.seq_len;
  const skip = unexpressibleTraining(o) || shardingAndRecompute(t, o) || optimizerAndSteps(t, o);
  if (skip) return { skip };
  masterWeightsAndLora(t, c, o, task);
  stackOptions(s, o);
  const late = batchShapeOptions(s, c, o);
  if (late) return { skip: late };
  s.training = t;
  return { scenario: s };
}

// Techniques that change a training step's memory and that no scenario field expresses.
function unexpressibleTraining(o) {
  if (o.compile === true) return 'not scored: torch.compile fusions are not a scenario option';
  if (o.float8 === true) return 'not scored: Float8 linears (fp8 saved activations) are not a scenario option';
  if (o.context_parallel > 1) return 'not scored: context parallelism is not a scenario option';
  return null;
}

function shardingAndRecompute(t, o) {
  if (o.zero !== undefined) t.zero = o.zero;
  // FSDP shards (ZeRO-3-like) unless the run names NO_SHARD / "ddp" (full weights on each GPU).
  if (o.fsdp) t.zero = /ddp|no_shard/i.test(String(o.fsdp)) ? 0 : 3;
  // FSDP CPUOffload(offload_params=True): parameters and gradients live on the CPU, which also runs the optimizer step.
  if (o.cpu_offload === true || o.fsdp_offload_params === true) Object.assign(t, { offload_optimizer: true, offload_params: true });
  if (o.grad_checkpointing !== undefined) {
    const g = o.grad_checkpointing;
    // "selective (layer)" etc.: selective recomputation; "selective (op)" below is not.
    // torchtitan's op-level SAC ("selective (op)": saves every other matmul output) is neither
    // Korthikanti's selective recomputation (scores only) nor full recomputation.
    if (/^selective \(op\)/i.test(String(g))) return 'not scored: op-level selective activation checkpointing (torchtitan) is not a scenario option';
    t.grad_checkpointing = g === true ? 'full' : g === false ? 'none' : /^selective/i.test(String(g)) ? 'selective' : g;
  }
  return null;
}

function optimizerAndSteps(t, o) {
  if (o.lora_rank) t.lora_rank = o.lora_rank;
  if (o.optimizer) {
    // "adamw_torch (HF Trainer default)", "torch.optim.AdamW (...)": the leading name decides.
    const name = String(o.optimizer).toLowerCase();
    const head = name.split(/[\s(]/)[0].replace(/^torch\.optim\./, '');
    const opt = OPTIMIZERS[name] || OPTIMIZERS[head];
    if (!opt) return `optimizer "${o.optimizer}" not mapped`;
    t.optimizer = opt;
  }
  if (o.grad_accum) t.grad_accum = o.grad_accum;
  if (o.offload_optimizer) t.offload_optimizer = true;
  if (o.offload_params) t.offload_params = true;
  return null;
}

const LORA_TARGETS = { 'q_proj k_proj v_proj o_proj': 'attention', 'q_proj k_proj v_proj o_proj c_attn': 'attention',
  'q_proj,v_proj': 'qv', 'query,value': 'qv', 'all-linear': 'all-linear', 'all linear': 'all-linear',
  'all-linear (lora_target_linear)': 'all-linear', 'all linear (attention and MLP)': 'all-linear',
  'query,key,value,projection,mlp,head': 'all-linear',
  'down_proj,gate_proj,k_proj,o_proj,q_proj,up_proj,v_proj': 'all-linear' };

function masterWeightsAndLora(t, c, o, task) {
  if (o.master_weights !== undefined) t.master_weights = o.master_weights;
  // Stated in the conditions: the model loaded in bf16, the Trainer keeps params, grads and
  // AdamW states in it (no fp32 master copy).
  if (o.master_weights === undefined && task === 'full' && /no fp32 master copy/i.test(c.conditions || '')) t.master_weights = false;
  // A plain PyTorch loop over a model loaded in 16 bits (no AMP, no Trainer) has no fp32 master:
  // torch.optim creates its states like the parameters.
  if (o.master_weights === undefined && task === 'full' && /plain PyTorch loop/i.test(c.framework || '') &&
      ['bf16', 'fp16'].includes(c.precision)) t.master_weights = false;
  if (o.lora_targets && LORA_TARGETS[o.lora_targets] && task !== 'full') t.lora_targets = LORA_TARGETS[o.lora_targets];
}

function stackOptions(s, o) {
  // Fused linear cross-entropy (Liger kernels) where the run's configuration names it; fms-acceleration's
  // fused-ops-and-kernels ("foak") replaces the loss with unsloth's in-place Fast_CrossEntropyLoss.
  if (/liger/i.test(String(o.framework_config || '')) || o.fused_linear_cross_entropy || o.use_liger_kernel) s.engine_options = { cross_entropy: 'fused' };
  else if (/foak/i.test(String(o.framework_config || ''))) s.engine_options = { cross_entropy: 'inplace' };
  // Stack options the case's engine_options state (LitGPT rows: docs/methodology.md "Fine-tuning stacks").
  // adapter_saves: what a PEFT method's adapted modules keep with fp32 adapters and no autocast (the
  // peft method-comparison harness; its source notes give each method's layer.py reading).
  // kbit_fp32_upcast: QLoRA prepared by peft's stock prepare_model_for_kbit_training under trl on one
  // device (fms-acceleration's baseline-peft-bnb; the source's notes give the code path).
  for (const k of ['cross_entropy', 'lora_dropout', 'bnb_quantizer', 'bnb_prev_step_inputs', 'bnb_double_quant', 'adapter_saves', 'kbit_fp32_upcast']) {
    if (o[k] !== undefined && o[k] !== null) addEngineOptions(s, { [k]: o[k] });
  }
}

// How the batches are shaped and loaded; returns why the case is not scored, or null.
function batchShapeOptions(s, c, o) {
  // Padding-free collation trains on the samples' real lengths, which the source does not state.
  if (o.padding_free === true) return 'not scored: padding-free batches hold the samples\' real lengths, which the source does not state';
  // lit-gpt's FSDP loading (fabric.load_raw, FULL_STATE_DICT) unshards every parameter on every rank:
  // a whole-run max_memory_allocated then holds the full model, which no scenario expresses.
  if (o.full_state_dict_load === true) return 'not scored: the run\'s peak includes loading the full state dict into the unsharded FSDP model on every rank';
  // transformers' reentrant gradient checkpointing wrapped around FSDP units (HF Trainer
  // --gradient_checkpointing under accelerate FSDP), where the case states it.
  if (o.checkpoint_wraps_fsdp === true) addEngineOptions(s, { checkpoint_wraps_fsdp: true });
  // Batches padded per batch to their longest sample: shapes vary from step to step (the caching
  // allocator keeps no spare loss-path blocks). Without a stated length the tokens per step are unknown.
  if (o.padded_batches === true) {
    if (!c.seq_len) return 'not scored: unpacked batches padded to their longest sample, whose length the source does not state';
    addEngineOptions(s, { padded_batches: true });
  }
  return null;
}
