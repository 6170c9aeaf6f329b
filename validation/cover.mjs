// One case -> what it is compared with: the scenario, the estimate's figure to read (`read`),
// the unit, and for speed the serving conditions (request rate, prompts, concurrency); or the
// reason it is listed but not scored.
import { GPUS } from './core.mjs';
import { ENGINE_READS, GiB, NOT_MODELLED, isMemory, kindOf, unitScale } from './metrics.mjs';
import { WEIGHTS, genericScenario, gpuId, modelFor, notExpressible, torchtuneScenario, weightsOf } from './scenario.mjs';

// The estimate's figure each memory metric is compared with.
const MEMORY_READ = {
  peak_memory_allocated: 'peak_allocated', peak_memory_reserved: 'peak_reserved', max_sampled_memory_allocated: 'peak_allocated', nvidia_smi_used: 'peak_total', peak_allocated_plus_context: 'peak_allocated_plus_external',
  vllm_weights_loaded: 'weights', sglang_weights_loaded: 'weights', llamacpp_model_buffer: 'weights', model_file_size: 'weights_all_gpus',
  llamacpp_kv_buffer: 'kv_cache', vllm_kv_cache_tokens: 'kv_tokens', sglang_kv_tokens: 'kv_tokens', vllm_gpu_blocks: 'kv_blocks',
};

// One case -> { kind, scenario, read, unitBytes } or { kind, skip }.
export function cover(c, presets, catalog) {
  const kind = kindOf(c.metric);
  const base = { kind };
  const model = modelFor(c, presets);
  if (c.metric === 'peak_gpu_memory_allocated_total') {
    // Qwen benchmark: max_memory_allocated summed over the GPUs of a device_map split: the whole
    // model on one (virtual) device, without the runtime share.
    return { ...base, read: 'peak_allocated', unitBytes: GiB,
      scenario: { model, engine: 'transformers', weights: WEIGHTS[c.precision], batch: c.batch,
        prompt_tokens: c.input_len, output_tokens: c.output_len } };
  }
  if (c.metric === 'peak_gpu_memory_per_gpu' || c.metric === 'peak_memory_active') {
    // torchtune logs torch.cuda.memory_stats() peaks (active/allocated): no context, no cache.
    const out = { ...base, read: 'peak_allocated', unitBytes: /^GB/.test(c.unit) ? 1e9 : GiB,
      scenario: torchtuneScenario(c, model) };
    const why = notExpressible(c);
    return why ? { ...out, skip: why } : out;
  }
  if (isMemory(kind)) return coverMemory(c, model, base, catalog);
  return coverSpeed(c, model, base, catalog);
}

function coverMemory(c, model, base, catalog) {
  if (NOT_MODELLED[c.metric] && !ENGINE_READS[c.metric]) return { ...base, skip: NOT_MODELLED[c.metric] };
  // A figure the source's own configuration cannot have produced, with that reason (as for speed).
  if (c.not_scored) return { ...base, skip: `not scored: ${c.not_scored}` };
  const unitBytes = unitScale(c.unit);
  if (unitBytes === null) return { ...base, skip: `unit "${c.unit}" not understood` };
  if (!model) return { ...base, skip: 'no architecture or preset given' };
  const g = genericScenario(c, model, catalog);
  if (g.skip) return { ...base, skip: g.skip };
  if (ENGINE_READS[c.metric]) {
    if (!g.scenario.gpu) return { ...base, skip: 'not scored: the engine budget needs the GPU, and the case names none in the catalog' };
    return { ...base, read: 'engine', unitBytes, scenario: g.scenario };
  }
  if (c.metric === 'nvidia_smi_used' && g.scenario.engine === 'lmdeploy') {
    return { ...base, skip: 'not scored: the engine reserves a fixed share of the card (gpu_memory_utilization); no model of that budget yet' };
  }
  return { ...base, read: MEMORY_READ[c.metric], unitBytes, scenario: g.scenario };
}

// Held-out speed cases (data/validation schema): the estimate's key of the same name.
// output_throughput: output tokens over the whole run at the stated concurrency (= batch), prefill included.
const SPEED_READ = { decode_tokens_per_s: 'decode_tokens_per_s', prefill_tokens_per_s: 'prefill_tokens_per_s',
  generation_tokens_per_s: 'generation_incl_prefill', output_throughput_tokens_per_s: 'generation_incl_prefill',
  total_throughput_tokens_per_s: 'total_incl_prefill', tpot_s: 'tpot', train_tokens_per_s: 'train_tokens_per_s',
  ttft_s: 'mean_ttft', tflops_per_gpu: 'model_tflops_per_gpu', mfu: 'mfu', step_time_s: 'step_time' };

function coverSpeed(c, model, base, catalog) {
  if (c.superseded_by) return { ...base, skip: `not scored: the source replaced this table (${c.superseded_by})` };
  // A figure the source's own script shows to be an artefact (e.g. timed before warm-up), with that reason.
  if (c.not_scored) return { ...base, skip: `not scored: ${c.not_scored}` };
  const gpu = gpuId(c, catalog);
  if (!gpu) return { ...base, skip: `GPU "${c.gpu}" is not in the catalog` };
  if (!model) return { ...base, skip: 'no architecture given' };
  const weights = weightsOf(c.precision);
  if (c.group.startsWith('qwen2.5-speed-benchmark') && c.metric === 'generation_tokens_per_s') {
    const vllm = c.group.endsWith('vllm');
    const n = c.gpu_count || 1;
    const par = vllm ? { tp: n } : { pp: n };  // vLLM TP; transformers device_map splits layers
    return { ...base, read: 'generation_incl_prefill', scenario: { model, gpu, engine: vllm ? 'vllm' : 'transformers',
      weights, batch: 1, prompt_tokens: c.input_len, output_tokens: c.output_len, gpus: n, ...par } };
  }
  if (c._split === 'calibration' && (c.metric === 'decode_tokens_per_s' || c.metric === 'prefill_tokens_per_s')) {
    if (!weights) return { ...base, skip: `precision "${c.precision}" not mapped` };
    return { ...base, read: c.metric, scenario: { model, gpu, engine: 'llama.cpp', weights, batch: 1,
      prompt_tokens: c.input_len || 1, output_tokens: c.output_len || 1 } };
  }
  if (c.metric === 'train_tokens_per_s_total') {
    return { ...base, read: 'train_tokens_per_s', scenario: { ...torchtuneScenario(c, model), gpu } };
  }
  if (c.metric === 'achieved_tflops_per_gpu') return coverMegatron(c, model, gpu, base);
  if (c.metric === 'gpu_hours' && c._split === 'calibration') {
    const tokens = Number(/tokens=([\d.]+)T/.exec(c.conditions)[1]) * 1e12;
    // The Llama 2 model card names no training framework: the scenario's default engine, as the unit
    // test of the same figures (tests/core/speed_test.cpp "GPU-hours of Llama 2 at the default MFU").
    return { ...base, read: 'gpu_hours', scenario: { model, gpu, task: 'pretrain', gpus: 8,
      seq_len: c.seq_len, training: { zero: 3, tokens } } };
  }
  const direct = SPEED_READ[c.metric];
  if (direct && c.workload) return coverSchemaSpeed(c, model, base, catalog, gpu, direct);
  return { ...base, skip: `metric ${c.metric} not compared yet` };
}

function coverSchemaSpeed(c, model, base, catalog, gpu, direct) {
  let burst;
  const sc = speedCase(c);
  if (sc.skip) return { ...base, skip: sc.skip };
  if (/^(full|pretrain)$/.test(c.workload) && c.precision === 'fp8') return { ...base, skip: 'fp8 training (Transformer Engine) is not a scenario option' };
  const g = genericScenario(sc.c, model, catalog);
  if (g.skip) return { ...base, skip: g.skip };
  const scenario = { ...g.scenario, gpu };
  const training = scenario.task !== 'inference';
  // Figures stated per GPU are the aggregate over the case's GPUs divided by their count.
  // (TFLOP/s per GPU and MFU are per-GPU reads already: model_tflops_per_gpu divides by the GPUs.)
  const perGpu = /per GPU/i.test(c.unit) && !/whole/i.test(c.unit) && !['model_tflops_per_gpu', 'mfu'].includes(direct) ? (c.gpu_count || 1) : 1;
  if (training) {
    const skip = trainingSpeedScenario(scenario, sc.c, c);
    if (skip) return { ...base, skip };
  } else {
    const served = servingSpeedScenario(scenario, sc.c, c);
    if (served.skip) return { ...base, skip: served.skip };
    burst = served.burst;
  }
  const peakBf16 = GPUS.get(gpu) ? GPUS.get(gpu).bf16_tflops || GPUS.get(gpu).fp16_tflops : null;
  const eo = sc.c.engine_options || {};
  const numPrompts = Math.min(eo.num_prompts ?? eo.num_requests ?? Infinity, eo.requests_sent ?? Infinity);
  // Closed loop: C clients each send their next request when the last returns (more requests than clients).
  const closedLoop = burst !== undefined && (eo.concurrency ?? eo.max_concurrency) !== undefined && numPrompts > burst;
  return { ...base, read: direct, scenario, perGpu, rate: rateOf(sc.c), peakBf16, numPrompts, burst, closedLoop };
}

// A training speed case's accumulation steps and units; returns why it is not scored, or null.
// `normal` is the case with its engine options normalised (speedCase), `c` the case as written.
function trainingSpeedScenario(scenario, normal, c) {
  const o = normal.engine_options || {};
  const dp = (scenario.gpus || 1) / ((scenario.tp || 1) * (scenario.pp || 1));
  // Global batch in sequences -> accumulation steps of micro-batches over the data-parallel ranks.
  if (!scenario.training.grad_accum && o.global_batch && scenario.batch) {
    const accum = o.global_batch / (scenario.batch * dp);
    if (accum >= 1 && Number.isInteger(Math.round(accum))) scenario.training.grad_accum = Math.max(1, Math.round(accum));
  }
  if (!scenario.seq_len) return 'training figure without a sequence length';
  if (c.metric === 'train_tokens_per_s' && !/total|per GPU/i.test(c.unit)) return `unit "${c.unit}" not understood`;
  if (c.metric === 'step_time_s' && !/iteration/.test(c.unit)) return `unit "${c.unit}" not understood`;
  if (c.metric === 'step_time_s' && /1,000 training iterations/.test(c.unit)) {
    return 'not scored: the source gives no sequence length for its micro-batches';
  }
  return null;
}

// A serving speed case's layout, CUDA graphs, batch and lengths; returns { burst } or { skip }.
function servingSpeedScenario(scenario, normal, c) {
  const o = normal.engine_options || {};
  // llama.cpp (--split-mode layer, its default) and transformers device_map split layers across GPUs.
  if (['llama.cpp', 'transformers'].includes(scenario.engine) && scenario.gpus > 1 && !(o.tp > 1) && !o.pp &&
      o.split_mode !== 'row') {
    scenario.pp = scenario.gpus; scenario.tp = 1;
  }
  if (o.split_mode === 'row' && scenario.gpus > 1) { scenario.tp = scenario.gpus; scenario.pp = 1; }
  const graphs = o.enforce_eager === true ? false : typeof o.cuda_graphs === 'boolean' ? o.cuda_graphs : undefined;
  if (graphs !== undefined) scenario.efficiency = { ...(scenario.efficiency || {}), cuda_graphs: graphs };
  // Tensor parallelism across Kubernetes pods: separate IPC namespaces keep NCCL off NVLink P2P and
  // shared memory (NCCL PR #248 disables both between unconnected containers; ucx-py docs "NVLink and
  // Docker/Kubernetes"), so the all-reduces ride the pod network, a link no scenario field expresses.
  if (o.tp_link === 'pod network' && (scenario.tp || 1) > 1) {
    return { skip: 'not scored: tensor parallelism across Kubernetes pods runs NCCL over the pod network (no NVLink P2P or shared memory between IPC namespaces); no scenario field expresses that link' };
  }
  const conc = concurrencyOf(normal);
  if (conc.skip) return { skip: conc.skip };
  scenario.batch = conc.batch;
  const burst = conc.batch;  // requests the client keeps outstanding (before the engine's limits)
  if (!scenario.prompt_tokens) scenario.prompt_tokens = c.metric === 'prefill_tokens_per_s' ? (c.seq_len || 512) : 1;  // llama-bench tg: empty context
  if (!scenario.output_tokens) scenario.output_tokens = c.metric === 'prefill_tokens_per_s' ? 1 : (c.output_len || 128);
  scenario.seq_len = scenario.prompt_tokens + scenario.output_tokens;
  // Engines admit at most max_num_seqs requests per step: vLLM's default 256 (vllm/engine/arg_utils.py).
  const cap = (normal.engine_options || {}).max_num_seqs || (scenario.engine === 'vllm' ? 256 : Infinity);
  scenario.batch = Math.min(scenario.batch, cap);
  return { burst };
}

// Speed cases only: engine options in the forms the sources wrote them (numbers as strings,
// "selective (op)") are normalised; the optimizer does not change a step's FLOPs, so its name is dropped.
function speedCase(c) {
  const o = { ...(c.engine_options || {}) };
  for (const k of ['tp', 'pp']) {
    if (typeof o[k] === 'string') {
      if (!/^\d+$/.test(o[k])) return { skip: `engine_options.${k} "${o[k]}" is not a number` };
      o[k] = Number(o[k]);
    }
  }
  if (typeof o.grad_checkpointing === 'string') {
    const g = o.grad_checkpointing.toLowerCase();
    o.grad_checkpointing = /^(none|false|off|no)$/.test(g) ? 'none' : /sel|norm|act|attn|op/.test(g) ? 'selective' : 'full';
  }
  if (o.recompute && o.grad_checkpointing === undefined) o.grad_checkpointing = 'selective';
  delete o.optimizer;
  if (o.fsdp === 0 || o.fsdp === false) delete o.fsdp;
  return { c: { ...c, engine_options: o } };
}

// Requests in flight: the stated concurrency; else a burst of num_prompts sent at once (rate "inf").
function concurrencyOf(c) {
  const o = c.engine_options || {};
  // A server that runs one generation at a time (engine_options.serialized) has batch 1 whatever the clients.
  if (o.serialized) return { batch: 1 };
  const n = o.concurrency ?? o.max_concurrency ?? o.batch;
  // Fewer requests than clients (the dataset ran out of prompts): all of them in flight at once.
  if (n !== undefined) return { batch: Math.min(Number(n), o.requests_sent ?? Infinity) };
  const rate = rateOf(c);
  if (rate === Infinity && o.num_prompts) return { batch: Number(o.num_prompts) };
  if (rate && rate !== Infinity) return { batch: c.batch || 1 };  // refined by the request rate (Little's law)
  return { batch: c.batch || 1 };
}
function rateOf(c) {
  const r = (c.engine_options || {}).request_rate;
  if (r === undefined) return null;
  if (r === 'inf' || r === Infinity) return Infinity;
  return Number(r) > 0 ? Number(r) : null;
}

function coverMegatron(c, model, gpu, base) {
  const m = /TP=(\d+), PP=(\d+), DP=(\d+)/.exec(c.conditions);
  const [tp, pp, dp] = m.slice(1).map(Number);
  const micro = 1;  // Narayanan et al. 2021 Table 1 runs use small micro-batches; assumption
  const accum = c.batch / (dp * micro);
  return { ...base, read: 'megatron_tflops', scenario: { model, gpu, task: 'pretrain', engine: 'megatron',
    weights: 'fp16', batch: micro, seq_len: c.seq_len, gpus: c.gpu_count, tp, pp,
    training: { zero: 1, grad_checkpointing: 'full', grad_accum: accum } } };
}
