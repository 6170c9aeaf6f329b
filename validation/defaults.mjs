// Scores every case a second time in "default settings": the scenario keeps only the keys a user
// of the page states (web/fields.js FIELDS: weights and KV-cache format, engine, lengths, batch,
// GPU and layout, the training settings) besides the model and the task; the engine options and
// efficiency knobs that describe a benchmark harness or a stack version (vLLM/SGLang flags, the
// sampler path, generate() version paths, quantized-kernel buffers, CUDA graphs ...) are left to
// the core's defaults.
import { FIELDS } from '../web/fields.js';
import { isMemory } from './metrics.mjs';
import { SPLIT_LABEL, groupKey, pct, scoredOf, stats } from './stats.mjs';

// prompt_tokens: the page states it as seq_len less output_tokens (docs/scenario.md: any two fix the third).
const STATED = ['model', 'task', 'prompt_tokens', ...FIELDS.map((f) => f.key)];

// The scenario as a user of the page would state it (dotted keys: one level deep, as in FIELDS).
export function statedOnly(s) {
  const out = {};
  for (const key of STATED) {
    const [head, tail] = key.split('.');
    if (tail === undefined) {
      if (s[head] !== undefined) out[head] = s[head];
    } else if (s[head] && s[head][tail] !== undefined) out[head] = { ...(out[head] || {}), [tail]: s[head][tail] };
  }
  return out;
}

const errs = (rows) => scoredOf(rows).map((r) => r.err);

// One table row: the same cases scored today and in default settings.
function line(label, today, dflt) {
  const a = stats(errs(today));
  const b = stats(errs(dflt));
  return `| ${label} | ${a.n} | ${pct(a.median)} | ${pct(a.within10)} | ${b.n} | ${pct(b.median)} | ${pct(b.within10)} |`;
}

const HEAD = ['| scored today | median abs. error | within 10 % | scored in default settings | median abs. error | within 10 % |',
  '|---|---|---|---|---|---|---|'];

// docs/validation.md's section: per split and kind (the overall figures), then per group.
export function defaultSettingsSection(rows, dflt) {
  const out = ['', '## Default settings', '',
    'Every case scored again with only what a user of the page states: the model, the task and the keys of',
    'the page\'s inputs (`web/fields.js`: weights and KV-cache format, engine and the engine version the source',
    'names where the core checked one covering it, lengths, batch, GPU, GPUs / TP / PP,',
    'the training settings). The `engine_options` and efficiency knobs the cases carry to describe their',
    'benchmark harness or stack version (vLLM/SGLang flags, the sampler path, generate() version paths,',
    'quantized-kernel buffers, CUDA graphs ...) are left to the core\'s defaults; the request load (rate,',
    'prompts, concurrency) is the benchmark\'s in both.', '',
    `| split · kind ${HEAD[0]}`, HEAD[1]];
  const both = (pred) => [rows.filter(pred), dflt.filter(pred)];
  const kinds = [...new Set(rows.map((r) => r.cov.kind))].sort((a, b) => (isMemory(b) - isMemory(a)) || a.localeCompare(b));
  for (const split of ['calibration', 'held-out']) {
    for (const kind of kinds) {
      const [a, b] = both((r) => r.c._split === split && r.cov.kind === kind);
      if (a.length) out.push(line(`${SPLIT_LABEL[split]} · ${kind}`, a, b));
    }
    for (const [label, mem] of [['all memory', true], ['all speed', false]]) {
      const [a, b] = both((r) => r.c._split === split && isMemory(r.cov.kind) === mem);
      if (a.length) out.push(line(`${SPLIT_LABEL[split]} · **${label}**`, a, b));
    }
  }
  out.push('', `| group · kind · split ${HEAD[0]}`, HEAD[1]);
  const keys = [...new Set(rows.map((r) => `${groupKey(r)}|${r.c._split}`))].sort();
  for (const k of keys) {
    const [a, b] = both((r) => `${groupKey(r)}|${r.c._split}` === k);
    const [key, split] = k.split('|');
    out.push(line(`${key} · ${split}`, a, b));
  }
  return out;
}
