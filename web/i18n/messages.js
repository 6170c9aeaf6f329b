// The core's messages (errors, warnings, launch notes, blockers, reasons) in the page's language,
// worded from their codes and values (./codes.js), and the page's keys of each registry code.
import { getLang } from './lang.js';
import { has, t, wordKeys } from './words.js';
import { fixed, gib, int, percent } from './format.js';
import { engineName, servingEngines, trainingEngines } from './names.js';

// A value of a core message, worded for the page: sizes in GiB, counts grouped, engines by name.
function formatValue(key, v) {
  if (Array.isArray(v)) return v.map((x) => formatValue(key, x)).join(getLang() === 'zh' ? '、' : ', ');
  if (typeof v === 'number') {
    if (/bytes$/.test(key)) return gib(v);
    if (key === 'headroom') return percent(v);
    if (key === 'min' || key === 'max' || key === 'value') return String(v);
    return Number.isInteger(v) ? int(v) : fixed(v, 2);
  }
  if (key === 'engine') return engineName(v);
  if (v && typeof v === 'object') return JSON.stringify(v);
  return String(v ?? '');
}
const formatValues = (values = {}) =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, formatValue(k, v)]));

// A core field path as a reader knows it: the input's own label, config.json's key, else the path.
export function fieldName(field = '', task = undefined) {
  const path = field.replace(/^\[\d+\]\./, '');
  if (task && has(`f.${path}.${task}`)) return t(`f.${path}.${task}`);
  const config = path.match(/^model\.hf_config\.(.+)$/);
  if (config) return t('fieldConfig', { key: config[1] });
  if (path === 'model.hf_config') return 'config.json';
  if (path === 'model' || path === 'model.params') return t(path === 'model' ? 'sec.model' : 'f.params');
  if (has(`f.${path}`)) return t(`f.${path}`);
  return path.replace(/^model\./, '');
}

// A core error {field, message, code, values} in the page's language, without its field (for the
// line under the input it concerns). In English, a code without the page's own wording shows the
// core's text; in Chinese, a code the page does not know yet shows that text, marked as the core's.
export function errorMessage(e) {
  const v = e.values ?? {};
  switch (e.code) {
    case 'integer_range':
    case 'number_range': {
      const base = t(e.code === 'number_range' && v.above ? 'e.number_above' : `e.${e.code}`, { min: v.min, max: v.max });
      return base + ('value' in v ? t('e.got', { value: JSON.stringify(v.value) }) : '');
    }
    case 'choice':
      return t('e.choice', { choices: (v.choices ?? []).join(getLang() === 'zh' ? '、' : ', '), value: JSON.stringify(v.value ?? '') });
    case 'unknown_model':
      return t('e.unknown_model', { name: v.name }) + (v.suggestions?.length ? t('e.suggest', { list: v.suggestions.join(getLang() === 'zh' ? '、' : ', ') }) : '');
    case 'engine_serving':
    case 'engine_training':
      return t(`e.${e.code}`, { engine: engineName(v.engine),
        list: (e.code === 'engine_serving' ? trainingEngines() : servingEngines()).map(engineName).join(getLang() === 'zh' ? '、' : ', ') });
    case 'checkpoint_weights':
      return t('e.checkpoint_weights', { ...formatValues(v), alt: v.alternative ? t('alt.published', { alternative: v.alternative, weights: v.weights }) : '' });
    default:
      if (e.code && has(`e.${e.code}`)) return t(`e.${e.code}`, formatValues(v));
      return getLang() === 'zh' ? t('e.other', { msg: e.message }) : e.message;
  }
}

// The error with its field, for a place that is not the input itself.
export const errorText = (e) => t('inputError', { field: fieldName(e.field), msg: errorMessage(e) });

// A core warning {code, field, message, values} in the page's language.
export function warning(w) {
  if (getLang() !== 'zh') return w.message;
  const v = w.values ?? {};
  const key = w.code === 'format_unsupported' ? `w.format_unsupported.${v.kind}` : `w.${w.code}`;
  if (!has(key)) return t('e.other', { msg: w.message });
  const vars = formatValues(v);
  if (w.code === 'model_name_resolved') vars.weightsNote = v.weights ? t('w.weightsNote', { weights: v.weights }) : '';
  if (w.code === 'launch_plan_invalid') vars.why = blocker(v.why, v.reason);
  if (w.code === 'launch_does_not_fit') vars.tail = t(v.preallocates ? 'w.launch_does_not_fit.prealloc' : 'w.launch_does_not_fit.oom', vars);
  if (w.code === 'online_fp8_load') vars.alt = v.alternative ? t('alt.prequantized', { alternative: v.alternative }) : '';
  return t(key, vars);
}

// Why a plan cannot be launched (launch_blocker's code and values).
function blocker(why, english) {
  if (!why?.code || !has(`why.${why.code}`)) return english ?? '';
  const vars = formatValues(why);
  if (why.code === 'context_beyond_window') vars.ext = t(why.factor ? 'ext.yarn' : 'ext.none', vars);
  return t(`why.${why.code}`, vars);
}

// A launch note {code, message, values} in the page's language.
export function note(n) {
  if (getLang() !== 'zh') return n.message;
  const v = n.values ?? {};
  const vars = formatValues(v);
  let key = `n.${n.code}`;
  if (n.code === 'kv_capacity') {
    vars.perReplica = v.replicas > 1 ? t('n.perReplica', { replicas: int(v.replicas), total: int(v.sequences * v.replicas) }) : '';
  } else if (n.code === 'no_marlin') {
    key = `n.no_marlin.${v.cuda ? 'cuda' : 'rocm'}`;
  } else if (n.code === 'gguf_path') {
    vars.repo = v.repo || t('n.thisModel');
    vars.converted = v.converted ? t('n.gguf_converted') : '';
  } else if (n.code === 'continued_pretraining') {
    vars.scratch = t(v.from_scratch ? 'n.continued_pretraining.scratch' : 'n.continued_pretraining.none', vars);
  } else if (n.code === 'megatron_rotary_base') {
    vars.detail = t(v.theta ? 'n.megatron_rotary_base.fraction' : 'n.megatron_rotary_base.unknown', vars);
  } else if (n.code === 'megatron_rope_scaling') {
    vars.f = v.factor ? `，factor ${vars.factor}` : '';
  } else if (n.code === 'dataset_placeholders') {
    vars.tmpl = v.template ? '' : t('n.dataset_placeholders.default');
  } else if (n.code === 'cheapest_not_launchable') {
    vars.why = blocker(v.why, v.reason);
  }
  return has(key) ? t(key, vars) : t('e.other', { msg: n.message });
}

// Why a plan (rank), a GPU type (takes) or a table cell does not fit: {reason, reason_code,
// reason_values} with the figures of the object itself.
export function reason(x, gpuName) {
  if (!x?.reason) return null;
  if (getLang() !== 'zh') return x.reason;
  const v = x.reason_values ?? {};
  const layout = t('layoutText', { tp: int(x.tp), pp: int(x.pp), gpus: int(x.gpus), zero: x.zero > 0 ? `、ZeRO-${x.zero}` : '' });
  switch (x.reason_code) {
    case 'too_large': {
      if (!v.gpu) return t('rs.too_large_takes', { layout, need: gib(x.per_gpu_bytes), cap: gib(x.usable_bytes) });
      let text = t('rs.too_large', { layout, need: gib(x.per_gpu_bytes), gpu: gpuName ?? v.gpu, cap: gib(x.usable_bytes), headroom: percent(v.headroom) });
      if (v.span) text += t(`rs.span.${v.span}`, formatValues(v));
      if (v.max_gpus) text += t('rs.max_gpus', formatValues(v));
      return text;
    }
    case 'no_layout':
      if (!v.instance) return t('rs.no_layout_takes');
      return t('rs.no_layout', { ...formatValues(v), cluster: v.cluster ? '' : t('rs.no_cluster'), single: v.multi_node ? '' : t('rs.single') })
        + (v.max_gpus ? t('rs.max_gpus', formatValues(v)) : '');
    case 'format_unsupported':
      return warning({ code: 'format_unsupported', values: v, message: x.reason });
    case 'no_instance':
      return t('rs.no_instance');
    case 'none_fits':
      return t('rs.none_fits', { closest: reason(x.plan, gpuName) ?? '' });
    default:
      return t('e.other', { msg: x.reason });
  }
}

// The page's keys of a core message (the core's `messages` list gives kind and code): the wording
// of an error is e.<code>, of a warning w.<code>, of a note n.<code>, of a launch blocker
// why.<code>, of a reason rs.<code>, of a format kind w.format_unsupported.<kind>; a few codes
// have one wording per case their values tell apart.
const CASES = {
  'note no_marlin': ['n.no_marlin.cuda', 'n.no_marlin.rocm'],
  'reason too_large': ['rs.too_large', 'rs.too_large_takes'],
  'reason no_layout': ['rs.no_layout', 'rs.no_layout_takes'],
  'warning format_unsupported': [],  // worded by its kind, a format entry
};
const PREFIX = { error: 'e', warning: 'w', note: 'n', blocker: 'why', reason: 'rs', format: 'w.format_unsupported' };
export const wordingKeys = (kind, code) => CASES[`${kind} ${code}`] ?? [`${PREFIX[kind]}.${code}`];
// Keys under those prefixes that word no code of their own: parts of other wordings, and the
// link's problems (why.number, ...: state.js), which share the why. prefix.
const PIECES = new Set(['e.number_above', 'e.got', 'e.suggest', 'e.other', 'w.weightsNote', 'n.perReplica',
  'n.gguf_converted', 'n.thisModel', 'rs.span.no_cluster', 'rs.span.slow_network', 'rs.span.single_machine',
  'rs.max_gpus', 'rs.no_cluster', 'rs.single', 'why.unknown', 'why.number', 'why.whole', 'why.bool',
  'why.json', 'why.task', 'why.object', 'w.launch_does_not_fit.prealloc', 'w.launch_does_not_fit.oom',
  'n.continued_pretraining.scratch', 'n.continued_pretraining.none', 'n.dataset_placeholders.default',
  'n.megatron_rotary_base.fraction', 'n.megatron_rotary_base.unknown']);
// "kind code" for every message wording the page has.
export function wordedCodes() {
  const out = new Set();
  const cased = Object.entries(CASES).flatMap(([id, keys]) => keys.map((k) => [k, id]));
  for (const key of wordKeys()) {
    if (PIECES.has(key)) continue;
    const c = cased.find(([k]) => k === key);
    if (c) { out.add(c[1]); continue; }
    const kind = Object.entries(PREFIX).sort((a, b) => b[1].length - a[1].length).find(([, p]) => key.startsWith(`${p}.`));
    if (kind) out.add(`${kind[0]} ${key.slice(kind[1].length + 1)}`);
  }
  return [...out];
}

