// The scenario the page holds (spec JSON, docs/scenario.md), where each workload tab starts, and
// its round trip through the URL hash as readable key=value pairs, e.g.
// #model=qwen2.5-7b&seq_len=8192&batch=4&gpu=l40s. Only keys that differ from the tab's starting
// point are written; a key cleared by the user is written empty, so a link restores exactly.
import { FIELDS, appliesTo, field, parseValue } from './fields.js';

// Each tab's starting point (engine, precisions, lengths, training settings) is the core's
// (core/src/scenario/starting_points.cpp, the catalog's `starting_points`, each value with its
// reason there); keys it leaves out take the parser's defaults. Set once the core is loaded,
// before any other call here: a link read without them would mean another scenario.
let startingPoints = null;
export function setStartingPoints(points) {
  startingPoints = points;
}
function startingPoint(task) {
  if (!startingPoints) throw new Error('state.js: setStartingPoints(catalog.starting_points) first');
  return Object.hasOwn(startingPoints, task) ? startingPoints[task] : undefined;
}

// The page's own example, not a fact about a workload: the model and the GPU every tab opens on
// (the prerendered figure, scripts/prerender.mjs, is this scenario's).
const BASE = { model: 'llama-3.1-8b', gpu: 'a100-80gb' };
// What a tab switch keeps: the model, the hardware and the cost settings are not the workload's.
const KEPT_ON_SWITCH = ['model', 'gpu', 'gpus', 'tp', 'pp', 'flash_attention', 'headroom', 'pricing', 'filters'];

export function defaults(task = 'inference') {
  return structuredClone({ ...BASE, task, ...startingPoint(task) });
}

export function switchTask(scenario, task) {
  const next = defaults(task);
  for (const key of KEPT_ON_SWITCH) {
    if (key in scenario) next[key] = structuredClone(scenario[key]);
    else delete next[key];
  }
  return next;
}

// Without the keys of fields.js that the scenario's task does not use (training keys on a
// serving scenario, the KV format on a training one).
export function forTask(scenario) {
  let next = scenario;
  for (const f of FIELDS) if (!appliesTo(f, scenario.task) && get(next, f.key) !== undefined) next = set(next, f.key, undefined);
  return next;
}

export const get = (scenario, key) => key.split('.').reduce((obj, part) => obj?.[part], scenario);

// A copy with `key` (dotted) set, or removed when value is undefined; an emptied sub-object goes too.
export function set(scenario, key, value) {
  const next = structuredClone(scenario);
  const parts = key.split('.');
  const last = parts.pop();
  let obj = next;
  for (const part of parts) obj = obj[part] ??= {};
  if (value === undefined) delete obj[last];
  else obj[last] = value;
  if (parts.length && Object.keys(obj).length === 0) delete next[parts[0]];
  return next;
}

export function toHash(scenario) {
  const base = defaults(scenario.task);
  const out = new URLSearchParams();
  if (scenario.task !== 'inference') out.set('task', scenario.task);
  const model = scenario.model;
  if (typeof model === 'string') {
    if (model !== base.model) out.set('model', model);
  } else if (model?.hf_config) {
    out.set('model.hf_config', JSON.stringify(model.hf_config));
  } else if (model?.params !== undefined) {
    out.set('model.params', String(model.params));
  }
  for (const f of FIELDS) {
    const value = get(scenario, f.key);
    if (JSON.stringify(value) === JSON.stringify(get(base, f.key))) continue;
    out.set(f.key, value === undefined ? '' : Array.isArray(value) ? value.join(',') : String(value));
  }
  return out.toString();
}

// Returns {scenario, lang} or, for a hash that cannot be read, the starting point and
// problem = {key, reason}: reason is an i18n code ('unknown', 'number', 'json', ...).
export function fromHash(hash) {
  const params = hashParams(hash);
  const lang = params.get('lang');
  const task = params.get('task') ?? 'inference';
  // A task the core does not know is refused there (intake.js), like any other bad value.
  if (!startingPoint(task) && !/^[a-z]+$/.test(task)) return fallback('task', 'task', lang);
  let scenario = defaults(task);
  for (const [key, text] of params) {
    if (key === 'task' || key === 'lang') continue;
    try {
      if (key === 'model') scenario.model = text;
      else if (key === 'model.params') scenario.model = { params: parseValue({ kind: 'num' }, text) };
      else if (key === 'model.hf_config') scenario.model = { hf_config: parseJson(text) };
      else if (field(key)) scenario = set(scenario, key, text === '' ? undefined : parseValue(field(key), text));
      else return fallback(key, 'unknown', lang);
    } catch (error) {
      return fallback(key, error.message, lang);
    }
  }
  return { scenario, lang };
}

const hashParams = (hash) => new URLSearchParams(hash.replace(/^#/, ''));
// The link's language alone (lang=), null when it has none: readable before the core is loaded.
export const hashLang = (hash) => hashParams(hash).get('lang');

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error('json');
  }
}

const fallback = (key, reason, lang) => ({ scenario: defaults(), lang, problem: { key, reason } });
