// Reads a covered case's prediction from its estimate: a number, null (the estimate has no such
// figure) or { skip } (why not).
import { PRESETS } from './core.mjs';
import { ENGINE_READS, unitScale } from './metrics.mjs';

// Narayanan et al. 2021, eq. 3, FLOPs with full recomputation: 96 B s l h^2 (1 + s/(6h) +
// V/(16 l h)) per iteration of B sequences of s tokens, i.e. per token without the B s factor.
function megatronFlopsPerToken(a, s) {
  return 96 * a.layers * a.hidden ** 2 * (1 + s / (6 * a.hidden) + a.vocab / (16 * a.layers * a.hidden));
}

// The KV memory the same start-up log reports (cases of one log share `extra.run`), in bytes.
function loggedKvBytes(c, byRun) {
  const run = c.extra && c.extra.run;
  if (!run) return null;
  const mates = byRun.get(run) || [];
  const vllm = mates.find((x) => x.metric === 'vllm_kv_cache_available');
  const sglang = mates.filter((x) => x.metric === 'sglang_k_size' || x.metric === 'sglang_v_size');  // K and V halves
  const parts = vllm ? [vllm] : sglang.length === 2 ? sglang : [];
  if (!parts.length || parts.some((x) => !unitScale(x.unit) || !(x.value > 0))) return null;
  return parts.reduce((sum, x) => sum + x.value * unitScale(x.unit), 0);
}

const MEMORY_READS = new Set(['peak_allocated', 'peak_reserved', 'peak_total', 'peak_allocated_plus_external', 'engine',
  'weights', 'weights_all_gpus', 'kv_cache', 'kv_tokens', 'kv_blocks']);

// Reads the prediction for a covered case from its estimate; null when the key is absent.
export function predict(cov, est, c, byRun) {
  if (MEMORY_READS.has(cov.read)) return predictMemory(cov, est.memory, c, byRun);
  const t = est.throughput;
  if (cov.read === 'gpu_hours') return est.time ? est.time.gpu_hours : null;
  if (!t) return null;
  return predictSpeed(cov, est, t, c);
}

function predictMemory(cov, m, c, byRun) {
  switch (cov.read) {
    case 'peak_allocated': return m.figures.allocated_bytes / cov.unitBytes;
    case 'peak_reserved': return m.figures.reserved_bytes / cov.unitBytes;
    case 'peak_total': return m.figures.nvidia_smi_bytes / cov.unitBytes;
    // optimum benchmark_gptq.py benchmark_memory: allocated_bytes.all.peak + (nvidia-smi peak - reserved_bytes.all.peak).
    case 'peak_allocated_plus_external': return (m.figures.allocated_bytes + m.figures.nvidia_smi_bytes - m.figures.reserved_bytes) / cov.unitBytes;
    case 'engine': {
      if (!m.engine) return { skip: 'not scored: the estimate has no engine budget for this scenario' };
      const v = ENGINE_READS[c.metric](m.engine);
      return c.metric === 'vllm_max_concurrency' ? v : v / cov.unitBytes;
    }
    case 'weights': return m.breakdown.weights / cov.unitBytes;
    case 'weights_all_gpus': return m.breakdown.weights * (cov.scenario.tp || 1) * (cov.scenario.pp || 1) / cov.unitBytes;
    case 'kv_cache': return m.breakdown.kv_cache / cov.unitBytes;
    default: return kvTokens(cov, m, c, byRun);  // kv_tokens, kv_blocks
  }
}

// KV cache tokens that the logged KV memory holds at the estimate's bytes per token and GPU:
// tests the per-token KV size (layers, KV heads, head size, dtype, TP split), not the budget.
function kvTokens(cov, m, c, byRun) {
  const bytes = loggedKvBytes(c, byRun);
  if (bytes === null) {
    // No KV memory in the same log: the engine budget's own token count (vLLM / SGLang).
    if (!m.engine) return { skip: 'not scored: no logged KV memory for this run and no engine budget (no GPU named)' };
    const block = (c.engine_options && c.engine_options.block_size) || 16;
    return cov.read === 'kv_tokens' ? m.engine.kv_tokens : m.engine.kv_tokens / block;
  }
  const s = cov.scenario;
  const seq = s.seq_len || 2048;  // the scenario's default seq_len (docs/scenario.md)
  const perToken = m.breakdown.kv_cache / ((s.batch || 1) * seq);
  const tokens = bytes / perToken;
  if (cov.read === 'kv_tokens') return tokens;
  const block = (c.engine_options && c.engine_options.block_size) || 16;  // vLLM's default --block-size
  return tokens / block;
}

function predictSpeed(cov, est, t, c) {
  switch (cov.read) {
    case 'generation_incl_prefill': {
      if (t.generation_tokens_per_s) return t.generation_tokens_per_s;  // the estimate's own end-to-end rate
      const s = cov.scenario;
      const seconds = s.prompt_tokens / t.prefill_tokens_per_s + s.output_tokens / t.decode_tokens_per_s;
      return s.output_tokens / seconds;
    }
    case 'total_incl_prefill': {  // (prompt + output) tokens per second of the same end-to-end run
      const s = cov.scenario;
      const gen = predict({ ...cov, read: 'generation_incl_prefill' }, est, c);
      return gen && s.output_tokens ? gen * (s.prompt_tokens + s.output_tokens) / s.output_tokens : null;
    }
    case 'tpot':  // seconds per output token of one request, the batch's chunked prefill included
      // A percentile of single decode-step latencies (LMDeploy profile_generation) is one step, no prefill.
      if (/latency of decode steps/.test(c.unit) && t.decode_tokens_per_s) {
        const s = cov.scenario;
        return (s.batch || 1) * (s.gpus || 1) / ((s.tp || 1) * (s.pp || 1)) / t.decode_tokens_per_s;
      }
      if (t.time_per_output_token_s) return t.time_per_output_token_s;
      return t.decode_tokens_per_s ? (cov.scenario.batch || 1) / t.decode_tokens_per_s : null;
    case 'mean_ttft': return meanTtft(cov, t, c);
    case 'model_tflops_per_gpu':
    case 'mfu': {
      if (!t.train_tokens_per_s) return null;
      const perToken = /Megatron formula|96\*B/.test(c.unit) ? megatronFlopsPerToken(c.arch, c.seq_len) : modelFlopsPerToken(est, c, cov.scenario);
      if (!perToken) return null;
      const tflops = t.train_tokens_per_s * perToken / (cov.scenario.gpus || 1) / 1e12;
      return cov.read === 'mfu' ? tflops / cov.peakBf16 : tflops;
    }
    case 'step_time': {
      if (!t.train_tokens_per_s) return null;
      const s = cov.scenario;
      const dp = (s.gpus || 1) / ((s.tp || 1) * (s.pp || 1));
      return s.batch * s.seq_len * (s.training.grad_accum || 1) * dp / t.train_tokens_per_s;
    }
    case 'megatron_tflops':
      return t.train_tokens_per_s * megatronFlopsPerToken(c.arch, c.seq_len) / cov.scenario.gpus / 1e12;
    default:
      return t[cov.read] ?? null;
  }
}

function meanTtft(cov, t, c) {
  // A burst of B prompts prefilled first-come first-served: the mean request waits for (B + 1) / 2
  // of the B prefills; under a finite request rate a prompt mostly finds no queue: one prefill.
  const b = cov.scenario.batch || 1;
  if (!t.time_to_first_token_s) return null;
  const dp0 = (cov.scenario.gpus || 1) / ((cov.scenario.tp || 1) * (cov.scenario.pp || 1));
  // LMDeploy TurboMind before the unified prefill/decode pass (InternLM/lmdeploy PR #775, 2023-12-04,
  // first released in v0.1.0): the context pass skips each prompt's last token ("subtract input/context
  // len by 1 to skip last input token (will process with decoder later)", LlamaBatch.cc ContextDecode
  // @v0.1.0a1), so the first token comes from the next decode step of the running batch.
  const turbomindA = cov.scenario.engine === 'lmdeploy' && /LMDeploy v?0\.(0\.|1\.0a)/i.test(c.framework || '');
  const firstStep = turbomindA && t.decode_tokens_per_s ? dp0 * b / t.decode_tokens_per_s : 0;
  const pf = turbomindA && (cov.scenario.prompt_tokens || 1) <= 1 ? 0 : t.time_to_first_token_s;  // no context pass
  return firstStep + queuedTtft(cov, t, c, b, pf);
}

// The first token's wait after the case's own prefill pf: the queue at a finite rate, a burst or a closed loop.
function queuedTtft(cov, t, c, b, pf) {
  // One admitted request's whole life (its wave): B x output / (output tokens per second per replica).
  const dp = (cov.scenario.gpus || 1) / ((cov.scenario.tp || 1) * (cov.scenario.pp || 1));
  const wave = t.generation_tokens_per_s ? dp * b * (cov.scenario.output_tokens || 1) / t.generation_tokens_per_s : 0;
  // vLLM multi-step scheduling (--num-scheduler-steps n, vllm-project/vllm PR #7000): the scheduler
  // runs once per n decode steps, so a new request waits for the rest of the running chunk, n / 2
  // steps on average, before its prefill.
  // Without multi-step, a request arriving while others decode joins at the next iteration boundary
  // (Orca's iteration-level scheduling, Yu et al. OSDI 2022): half a decode step on average. A lone
  // request (b = 1) finds the engine idle.
  const steps = (c.engine_options || {}).num_scheduler_steps || 1;
  const chunkWait = b > 1 && t.decode_tokens_per_s ? steps / 2 * dp * b / t.decode_tokens_per_s : 0;
  if (cov.rate && cov.rate !== Infinity) {
    // Overloaded (arrivals beyond the admitted batch): N prompts arrive over N / rate seconds and
    // leave at mu = B / wave per second; the queue grows linearly, the mean request waits
    // N / 2 x (1 / mu - 1 / rate) (deterministic fluid queue).
    if (cov.overloaded && wave > 0 && cov.numPrompts) {
      const mu = b / wave;
      return pf / b + Math.max(0, cov.numPrompts / 2 * (1 / mu - 1 / cov.rate));
    }
    return (cov.ttftOne || pf / b) + chunkWait;
  }
  // Closed loop in steady state: clients' requests arrive staggered, each prompt prefilled on its own
  // (a chunk among the decode steps), as under a finite rate; a burst queues FCFS behind the others.
  // A closed-loop client sends its next request as soon as its last token arrives, which is at the
  // end of a step: the request reaches the engine just after the next step began and waits for all
  // of it (a whole chunk), not half of one as a request arriving at a random moment does.
  const own = cov.closedLoop ? pf / b + 2 * chunkWait : pf * (b + 1) / (2 * b);
  const n = cov.queued || b;
  // More requests than the engine admits: closed loop of n clients, B served at a time, each waits
  // (n - B) / B request lives (Little's law); a burst of n runs in n / B waves, the mean request
  // waiting (n / B - 1) / 2 of them.
  const steady = n <= b || !wave ? own : own + (cov.closedLoop ? (n - b) / b : (n / b - 1) / 2) * wave;
  // A closed loop starts with every client sending at once (LMDeploy profile_throughput.py @3e391df,
  // process_request: all threads started together, each pulling its next prompt from one queue): the
  // first B requests are a burst, prefilled first come first served. A mean over N requests carries
  // them with weight B / N (a median over N >> B does not).
  if (cov.closedLoop && /mean/i.test(c.unit || '') && Number.isFinite(cov.numPrompts) && cov.numPrompts > b) {
    const first = pf * (b + 1) / (2 * b);
    return (b * first + (cov.numPrompts - b) * steady) / cov.numPrompts;
  }
  return steady;
}

// Model FLOPs per training token as throughput reports count them (PaLM, Chowdhery et al. 2022,
// App. B): 6 N (active parameters) + 12 L d_attn s, forward and backward, no recomputation.
function modelFlopsPerToken(est, c, s) {
  const a = c.arch || {};
  const p = PRESETS.get(s.model) || {};
  const layers = a.layers || p.layers;
  const heads = a.heads || p.heads;
  const width = heads * (a.head_dim || p.head_dim || (a.hidden || p.hidden) / heads);
  if (!layers || !width || !est.model) return null;
  return 6 * est.model.active_params + 12 * layers * width * s.seq_len;
}
