// Compares gpusizer's estimates with the published measurements of shared/validation/public.json
// and writes docs/validation.md. Node only, no dependencies.
//
//   node scripts/validate.mjs [public.json] [--out docs/validation.md]
//   GPUSIZER_BIN=/tmp/build/gpusizer node scripts/validate.mjs
//
// Each case becomes a scenario (model preset matched on the architecture, or explicit fields);
// all scenarios go to `gpusizer estimate` as one JSON array. Memory figures that
// torch.cuda.max_memory_allocated-style counters report are compared without the estimate's
// `runtime` share (CUDA context, workspaces, fragmentation); nvidia-smi-style figures with it.
// Speed and time metrics are compared once the estimate carries `throughput` / `time`.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const GiB = 2 ** 30;
const GB = 1e9;

function parseArgs(argv) {
  const args = { input: join(ROOT, '..', 'shared', 'validation', 'public.json'), out: join(ROOT, 'docs', 'validation.md') };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') args.out = resolve(argv[++i]);
    else args.input = resolve(argv[i]);
  }
  args.bin = process.env.GPUSIZER_BIN || join(ROOT, 'build', 'native', 'gpusizer');
  return args;
}

function runCli(bin, command, input) {
  const r = spawnSync(bin, input === undefined ? [command] : [command, '-'], {
    input: input === undefined ? undefined : JSON.stringify(input),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.error) throw new Error(`cannot run ${bin}: ${r.error.message}`);
  if (r.status !== 0) return { error: r.stderr.trim() };
  return { value: JSON.parse(r.stdout) };
}

// ---- case -> scenario ---------------------------------------------------------------------

const GPU_IDS = [
  [/A100[- ]SXM 80GB|A100 80GB|A100 \(80GB/i, 'a100-80gb'],
  [/RTX 4090/i, 'rtx4090'],
  [/RTX 3090/i, 'rtx3090'],
  [/H100/i, 'h100-80gb'],
];
function gpuId(name) {
  for (const [re, id] of GPU_IDS) if (re.test(name || '')) return id;
  return null;
}

const WEIGHTS = { 'bf16': 'bf16', 'gptq-int8': 'gptq-int8', 'gptq-int4': 'gptq-int4', 'awq-int4': 'awq-int4',
  'GGUF F16': 'fp16', 'GGUF Q8_0': 'q8_0', 'GGUF Q4_0': 'q4_0', 'fp16 mixed': 'fp16', 'bf16 mixed': 'bf16' };

// The preset whose architecture equals the case's, else explicit fields.
function modelFor(c, presets) {
  const a = c.arch;
  const same = (p) => p.layers === a.layers && p.hidden === a.hidden && p.heads === a.heads &&
    p.kv_heads === a.kv_heads && p.intermediate === a.intermediate && p.vocab === a.vocab;
  const preset = presets.find(same);
  if (preset) return preset.id;
  // GPT-style models of the Megatron papers: 4h GELU MLP (the spec's "plain" MLP).
  const plain = a.intermediate === 4 * a.hidden && a.vocab === 51200;
  return { name: c.model, layers: a.layers, hidden: a.hidden, heads: a.heads, kv_heads: a.kv_heads,
    head_dim: a.hidden / a.heads, intermediate: a.intermediate, vocab: a.vocab,
    tied_embeddings: !!a.tied_embeddings, mlp: plain ? 'plain' : 'gated' };
}

// torchtune's Llama 3.2 3B "optimization flags" rows: each row adds one technique to the previous.
const TORCHTUNE_STACK = ['Baseline', 'Packed Dataset', 'Compile', 'Chunked Cross Entropy', 'Activation Checkpointing',
  'Fuse optimizer step into backward', 'Activation Offloading', '8-bit AdamW', 'LoRA', 'QLoRA'];

function stackTechniques(c) {
  const m = /stack up to '(?:\+ )?([^']+)'/.exec(c.conditions);
  if (!m) return null;
  const upto = TORCHTUNE_STACK.indexOf(m[1]);
  let used = TORCHTUNE_STACK.slice(0, upto + 1);
  if (c.workload !== 'finetune-full') used = used.filter((t) => t !== 'Fuse optimizer step into backward' && t !== '8-bit AdamW');
  return used;
}

// Techniques a scenario cannot express: the case is reported, not scored.
function notExpressible(c) {
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

function torchtuneScenario(c, model) {
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

// One case -> { scenario, metric, withRuntime, unitBytes } or { skip }.
function cover(c, presets) {
  const why = notExpressible(c);
  const model = c.arch ? modelFor(c, presets) : null;
  const base = { metric: c.metric };
  if (c.metric === 'peak_gpu_memory_allocated_total') {
    // Qwen benchmark: max_memory_allocated summed over the GPUs of a device_map split: the whole
    // model on one (virtual) device, without the runtime share.
    return { ...base, kind: 'memory', withRuntime: false, unitBytes: GiB,
      scenario: { model, engine: 'transformers', weights: WEIGHTS[c.precision], batch: c.batch,
        prompt_tokens: c.input_len, output_tokens: c.output_len } };
  }
  if (c.metric === 'peak_gpu_memory_per_gpu' || c.metric === 'peak_memory_active') {
    // torchtune logs torch.cuda.memory_stats() peaks (active/allocated): no context, no cache.
    const out = { ...base, kind: 'memory', withRuntime: false, unitBytes: /^GB/.test(c.unit) ? GB : GiB,
      scenario: torchtuneScenario(c, model) };
    return why ? { ...out, skip: why } : out;
  }
  return coverSpeed(c, model, base);
}

function coverSpeed(c, model, base) {
  const gpu = gpuId(c.gpu);
  if (!gpu) return { ...base, kind: 'speed', skip: `GPU "${c.gpu}" is not in the catalog` };
  if (!model) return { ...base, kind: 'speed', skip: 'no architecture given' };
  const weights = WEIGHTS[c.precision];
  const speed = { ...base, kind: 'speed' };
  if (c.group.startsWith('qwen2.5-speed-benchmark') && c.metric === 'generation_tokens_per_s') {
    const vllm = c.group.endsWith('vllm');
    const n = c.gpu_count || 1;
    const par = vllm ? { tp: n } : { pp: n };  // vLLM TP; transformers device_map splits layers
    return { ...speed, read: 'generation_incl_prefill', scenario: { model, gpu, engine: vllm ? 'vllm' : 'transformers',
      weights, batch: 1, prompt_tokens: c.input_len, output_tokens: c.output_len, gpus: n, ...par } };
  }
  if (c.metric === 'decode_tokens_per_s' || c.metric === 'prefill_tokens_per_s') {
    if (!weights) return { ...speed, skip: `precision "${c.precision}" not mapped` };
    const prompt = c.input_len || 1;
    const output = c.output_len || 1;
    return { ...speed, read: c.metric, scenario: { model, gpu, engine: 'llama.cpp', weights, batch: 1,
      prompt_tokens: prompt, output_tokens: output } };
  }
  if (c.metric === 'train_tokens_per_s_total') {
    return { ...speed, read: 'train_tokens_per_s', scenario: { ...torchtuneScenario(c, model), gpu } };
  }
  if (c.metric === 'achieved_tflops_per_gpu') return coverMegatron(c, model, gpu, speed);
  if (c.metric === 'gpu_hours') {
    const tokens = Number(/tokens=([\d.]+)T/.exec(c.conditions)[1]) * 1e12;
    return { ...speed, read: 'gpu_hours', scenario: { model, gpu, task: 'pretrain', engine: 'fsdp', gpus: 8,
      seq_len: c.seq_len, training: { zero: 3, tokens } } };
  }
  return { ...speed, skip: `metric ${c.metric} not compared` };
}

function coverMegatron(c, model, gpu, speed) {
  const m = /TP=(\d+), PP=(\d+), DP=(\d+)/.exec(c.conditions);
  const [tp, pp, dp] = m.slice(1).map(Number);
  const micro = 1;  // Narayanan et al. 2021 Table 1 runs use small micro-batches; assumption
  const accum = c.batch / (dp * micro);
  return { ...speed, read: 'megatron_tflops', scenario: { model, gpu, task: 'pretrain', engine: 'megatron',
    weights: 'fp16', batch: micro, seq_len: c.seq_len, gpus: c.gpu_count, tp, pp,
    training: { zero: 1, grad_checkpointing: 'full', grad_accum: accum } } };
}

// Narayanan et al. 2021, eq. 3, FLOPs with full recomputation: 96 B s l h^2 (1 + s/(6h) +
// V/(16 l h)) per iteration of B sequences of s tokens, i.e. per token without the B s factor.
function megatronFlopsPerToken(a, s) {
  return 96 * a.layers * a.hidden ** 2 * (1 + s / (6 * a.hidden) + a.vocab / (16 * a.layers * a.hidden));
}

// Reads the prediction for a covered case from its estimate; null when the key is absent.
function predict(cov, est, c) {
  if (cov.kind === 'memory') {
    const m = est.memory;
    return (m.per_gpu_bytes - (cov.withRuntime ? 0 : m.breakdown.runtime)) / cov.unitBytes;
  }
  const t = est.throughput;
  if (cov.read === 'gpu_hours') return est.time ? est.time.gpu_hours : null;
  if (!t) return null;
  switch (cov.read) {
    case 'generation_incl_prefill': {
      if (t.generation_tokens_per_s) return t.generation_tokens_per_s;  // the estimate's own end-to-end rate
      const s = cov.scenario;
      const seconds = s.prompt_tokens / t.prefill_tokens_per_s + s.output_tokens / t.decode_tokens_per_s;
      return s.output_tokens / seconds;
    }
    case 'megatron_tflops':
      return t.train_tokens_per_s * megatronFlopsPerToken(c.arch, c.seq_len) / cov.scenario.gpus / 1e12;
    default:
      return t[cov.read] ?? null;
  }
}

// ---- statistics and report ----------------------------------------------------------------

function quantile(sorted, q) {
  if (!sorted.length) return NaN;
  const i = (sorted.length - 1) * q;
  const lo = Math.floor(i);
  return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (i - lo);
}
function stats(errors) {
  const abs = errors.map(Math.abs).sort((a, b) => a - b);
  return { n: abs.length, median: quantile(abs, 0.5), p90: quantile(abs, 0.9),
    within10: abs.length ? abs.filter((e) => e <= 0.10).length / abs.length : NaN };
}
const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)} %` : '-');
const num = (x) => (x === null || x === undefined ? '-' : Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(2));

function estimateAll(bin, scenarios) {
  const batch = runCli(bin, 'estimate', scenarios);
  if (!batch.error) return batch.value.map((value) => ({ value }));
  return scenarios.map((s) => runCli(bin, 'estimate', s));  // find the bad one(s)
}

function evaluate(cases, bin) {
  const presets = runCli(bin, 'models').value;
  const rows = cases.map((c) => ({ c, cov: cover(c, presets) }));
  const todo = rows.filter((r) => r.cov.scenario);
  const results = estimateAll(bin, todo.map((r) => r.cov.scenario));
  todo.forEach((r, i) => {
    if (results[i].error) { r.cov.skip = r.cov.skip || `estimate failed: ${results[i].error}`; return; }
    r.pred = predict(r.cov, results[i].value, r.c);
    if (r.pred === null) r.cov.skip = r.cov.skip || 'not covered: the estimate has no throughput/time yet';
    else r.err = r.pred / r.c.value - 1;
  });
  return rows;
}

function summarize(rows) {
  const scored = rows.filter((r) => r.err !== undefined && !r.cov.skip);
  const key = (r) => `${r.c.group} (${r.cov.kind})`;
  const groups = [...new Set(rows.map(key))];
  const lines = groups.map((g) => {
    const all = rows.filter((r) => key(r) === g);
    const st = stats(scored.filter((r) => key(r) === g).map((r) => r.err));
    return { name: g, key: g, kind: all[0].cov.kind, cases: all.length, ...st };
  });
  const memory = stats(scored.filter((r) => r.cov.kind === 'memory').map((r) => r.err));
  const overall = stats(scored.map((r) => r.err));
  return { lines, memory, overall };
}

function printSummary(sum) {
  const row = (name, s, cases) => `${name.padEnd(34)} ${String(s.n).padStart(4)}/${String(cases ?? '').padEnd(4)} ` +
    `median ${pct(s.median).padStart(8)}  p90 ${pct(s.p90).padStart(8)}  within 10 % ${pct(s.within10).padStart(8)}`;
  for (const l of sum.lines) console.log(row(l.name, l, l.cases));
  console.log(row('all memory cases', sum.memory));
  console.log(row('all scored cases', sum.overall));
}

function markdown(rows, sum, input) {
  const out = ['# Validation against published measurements', '',
    `Generated by \`scripts/validate\` from \`${input.replace(/^.*\/shared\//, 'shared/')}\`; do not edit by hand.`,
    'Error = prediction / measurement - 1. Memory figures from allocator counters (`max_memory_allocated`,',
    'torchtune peak memory) are compared with `per_gpu_bytes - runtime`; GB and GiB follow each case\'s `unit`.',
    'Cases whose conditions use a technique no scenario field expresses are listed with their prediction but',
    'not scored; speed and time cases are scored once the estimate carries `throughput` / `time`.', '',
    '## Summary', '', '| group | kind | scored / cases | median abs. error | p90 abs. error | within 10 % |', '|---|---|---|---|---|---|'];
  for (const l of sum.lines) out.push(`| ${l.name} | ${l.kind} | ${l.n} / ${l.cases} | ${pct(l.median)} | ${pct(l.p90)} | ${pct(l.within10)} |`);
  out.push(`| **all memory** | memory | ${sum.memory.n} | ${pct(sum.memory.median)} | ${pct(sum.memory.p90)} | ${pct(sum.memory.within10)} |`);
  out.push(`| **all scored** | | ${sum.overall.n} | ${pct(sum.overall.median)} | ${pct(sum.overall.p90)} | ${pct(sum.overall.within10)} |`, '');
  for (const g of sum.lines) {
    out.push(`## ${g.name}`, '', '| case | prediction | measured | unit | error | note |', '|---|---|---|---|---|---|');
    for (const r of rows.filter((x) => `${x.c.group} (${x.cov.kind})` === g.key)) {
      const err = r.err === undefined ? '-' : pct(r.err);
      out.push(`| ${r.c.id} | ${num(r.pred)} | ${num(r.c.value)} | ${r.c.unit} | ${err} | ${r.cov.skip || ''} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const cases = JSON.parse(readFileSync(args.input, 'utf8'));
  const rows = evaluate(cases, args.bin);
  const sum = summarize(rows);
  printSummary(sum);
  const notes = join(ROOT, 'docs', 'validation-notes.md');
  let text = markdown(rows, sum, args.input);
  try { text += '\n' + readFileSync(notes, 'utf8'); } catch { /* no hand-written notes */ }
  writeFileSync(args.out, text);
  console.log(`wrote ${args.out}`);
}

main();
