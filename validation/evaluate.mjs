// Every case -> a row { c, cov, pred, err }: covers each case, estimates all scenarios in one
// CLI call, then refines serving batches (admission, request rate) and scores the predictions.
import { estimateAll, loadLists } from './core.mjs';
import { cover } from './cover.mjs';
import { predict } from './predict.mjs';

// Requests a serving engine keeps in flight: the KV cache's tokens (the estimate's engine budget,
// vLLM/SGLang) over a request's mean length while it decodes, prompt + output / 2 (PagedAttention
// allocates blocks as tokens are generated and preempts when they run out: Kwon et al. 2023, 4.2
// and 4.5); without an engine budget, the largest batch the memory estimate fits (max.batch).
function admitted(cov, result) {
  const s = cov.scenario;
  if (cov.kind !== 'speed' || !s || s.task !== 'inference' || result.error) return Infinity;
  const est = result.value;
  const engine = est.memory && est.memory.engine;
  let cap = Infinity;
  if (engine && engine.kv_tokens > 0) {
    // kv_tokens is one rank's pool, as the engine logs it; under SGLang's DP attention each of the tp
    // ranks holds its own requests in its own pool (docs/speed.md "DP attention").
    const pools = (s.engine_options || {}).dp_attention === true ? (s.tp || 1) : 1;
    cap = Math.max(1, Math.floor(pools * engine.kv_tokens / ((s.prompt_tokens || 1) + (s.output_tokens || 1) / 2)));
  }
  // The memory estimate holds each sequence at the full seq_len: beyond its largest batch (max.batch) a
  // re-estimate at the admitted batch would not fit, so the admitted batch never exceeds it.
  if (est.max && est.max.batch >= 1) cap = Math.min(cap, est.max.batch);
  return cap;
}


const finiteRate = (cov) => cov.rate && cov.rate !== Infinity;

// Cases of one start-up log share `extra.run`.
function runsOf(cases) {
  const byRun = new Map();
  for (const c of cases) {
    const run = c.extra && c.extra.run;
    if (run) byRun.set(run, [...(byRun.get(run) || []), c]);
  }
  return byRun;
}

// Serving: an engine holds at most what its KV cache fits in flight; a burst beyond that queues.
// Training and single requests that do not fit are reported as such.
function capByAdmission(todo, results, bin) {
  for (const [r, i] of todo.map((x, k) => [x, k])) {
    r.cov.admit = admitted(r.cov, results[i]);
    if (r.cov.burst > r.cov.scenario.batch) r.cov.queued = r.cov.burst;  // beyond max_num_seqs
  }
  const capped = todo.map((r, i) => [r, i]).filter(([r]) => r.cov.admit < r.cov.scenario.batch &&
    !finiteRate(r.cov));
  if (capped.length) {
    for (const [r] of capped) { r.cov.queued = r.cov.burst || r.cov.scenario.batch; r.cov.scenario.batch = r.cov.admit; }
    const again = estimateAll(bin, capped.map(([r]) => r.cov.scenario));
    capped.forEach(([, i], k) => { results[i] = again[k]; });
  }
}

// Serving at a finite request rate: requests in flight = rate x request latency (Little's law),
// capped by the prompts sent; two fixed-point rounds re-estimate at that batch.
function batchAtRate(todo, results, bin) {
  for (let round = 0; round < 2; round++) {
    const rated = todo.map((r, i) => [r, i]).filter(([r, i]) => finiteRate(r.cov) && !results[i].error);
    if (!rated.length) break;
    for (const [r, i] of rated) {
      const t = results[i].value.throughput || {};
      const s = r.cov.scenario;
      if (!t.decode_tokens_per_s || !t.time_to_first_token_s) continue;
      const latency = t.time_to_first_token_s / s.batch + (s.output_tokens || 1) * s.batch / t.decode_tokens_per_s;
      const wanted = Math.max(1, Math.min(r.cov.numPrompts || Infinity, Math.round(r.cov.rate * latency)));
      // Arrivals beyond what the KV cache admits queue: the server runs at its admitted batch (overloaded).
      r.cov.overloaded = wanted > r.cov.admit;
      s.batch = Math.min(wanted, r.cov.admit);
    }
    const again = estimateAll(bin, rated.map(([r]) => r.cov.scenario));
    rated.forEach(([, i], k) => { results[i] = again[k]; });
  }
}

// DP attention (engine_options.dp_attention, docs/speed.md "DP attention"): a prompt arriving at a finite
// rate is prefilled on its own rank, with the whole attention of that prompt there, not a 1 / B share of a
// batch's prefill spread over the ranks: its first token waits for a one-prompt prefill.
function dpAttentionTtft(todo, results, bin) {
  const lone = todo.map((r, i) => [r, i]).filter(([r, i]) => finiteRate(r.cov) && !results[i].error &&
    (r.cov.scenario.engine_options || {}).dp_attention === true);
  if (lone.length) {
    const one = estimateAll(bin, lone.map(([r]) => ({ ...r.cov.scenario, batch: 1 })));
    lone.forEach(([r], k) => { if (!one[k].error) r.cov.ttftOne = (one[k].value.throughput || {}).time_to_first_token_s; });
  }
  // SGLang's --enable-dp-attention also splits the MLA cache: each rank keeps its own requests' latents
  // (memory_inference.cpp, since a43544b), so where the admitted batch binds (arrivals queue) the
  // estimate's own capacity is the figure's.
}

// At a finite request rate the server emits at most what arrives: rate x output tokens per request.
// A run of N prompts lasts until the last one finishes: the arrivals (N / rate) or the server's own
// pace (N / mu, mu = requests per second at the admitted batch), whichever is longer, plus one
// request's latency (TTFT + output x TPOT) to drain; output throughput = N x output / that time.
function outputAtRate(r, est) {
  const out = r.cov.scenario.output_tokens || 1;
  const t = est.throughput || {};
  const n = r.cov.numPrompts;
  if (n && n !== Infinity && t.time_per_output_token_s) {
    const latency = (t.time_to_first_token_s || 0) / (r.cov.scenario.batch || 1) + out * t.time_per_output_token_s;
    return n * out / (Math.max(n / r.cov.rate, n * out / r.pred) + latency);
  }
  return Math.min(r.pred, r.cov.rate * out);
}

// The prediction and its error, or why the row is not scored.
function score(r, result, byRun) {
  if (result.error) { r.cov.skip = r.cov.skip || `estimate failed: ${result.error}`; return; }
  const p = predict(r.cov, result.value, r.c, byRun);
  if (p && typeof p === 'object') { r.cov.skip = r.cov.skip || p.skip; return; }
  r.pred = p;
  r.params = result.value.model && result.value.model.params;
  if (typeof p === 'number' && r.cov.perGpu > 1) r.pred = p / r.cov.perGpu;
  if (typeof p === 'number' && finiteRate(r.cov) && r.c.metric === 'output_throughput_tokens_per_s') {
    r.pred = outputAtRate(r, result.value);
  }
  if (p === null && r.cov.kind === 'speed' && result.value.gpu && !result.value.gpu.fits) {
    r.cov.skip = r.cov.skip || 'not scored: the memory estimate says this layout does not fit, so no speed is given';
  } else if (p === null) r.cov.skip = r.cov.skip || 'not covered: the estimate has no throughput/time for it yet';
  else if (!Number.isFinite(p)) r.cov.skip = r.cov.skip || 'prediction is not a finite number';
  else if (r.c.value > 0) r.err = r.pred / r.c.value - 1;
  else r.cov.skip = r.cov.skip || 'negative measured value: listed, not scored';
}

// `adjust` rewrites each covered scenario before it is estimated (defaults.mjs statedOnly).
export function evaluate(cases, bin, adjust = (s) => s) {
  const { presets, catalog } = loadLists(bin);
  const byRun = runsOf(cases);
  const rows = cases.map((c) => ({ c, cov: cover(c, presets, catalog) }));
  for (const r of rows) if (r.cov.scenario) r.cov.scenario = adjust(r.cov.scenario);
  const todo = rows.filter((r) => r.cov.scenario);  // unexpressible rows still show their prediction
  const results = estimateAll(bin, todo.map((r) => r.cov.scenario));
  capByAdmission(todo, results, bin);
  batchAtRate(todo, results, bin);
  dpAttentionTtft(todo, results, bin);
  todo.forEach((r, i) => score(r, results[i], byRun));
  return rows;
}
