// Every scenario from outside the page's own controls (the link, a loaded file, a table cell, a
// pasted config.json) comes in through here, and every price book is judged here: plain functions
// of the core (facade.js) so that node tests run the page's own checks
// (tests/wasm/resilience-model.test.mjs).
import { defaults } from './state.js';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// {hf_config} with only the top-level keys the core reads (the core says which: a large paste
// must not travel into the link whole); any other model, or a config the core refuses (its error
// then shows at the field), as it is.
export function compactModel(core, model) {
  const config = model?.hf_config;
  if (!isObject(config)) return model;
  const read = core.configKeys(config);
  if (read.error) return model;
  return { hf_config: Object.fromEntries(read.keys.map((key) => [key, config[key]])) };
}

// Returns {scenario, problem}: the candidate when the core accepts it, else the defaults and why.
// A scenario that parses but that the core refuses (batch=0, an unknown GPU or provider) is no
// better than one that does not parse (`problem` from state.js fromHash): both fall back.
export function intake(core, candidate, problem = null) {
  if (problem) return { scenario: defaults(), problem };
  if (!isObject(candidate)) {
    return { scenario: defaults(), problem: { key: 'scenario', reason: 'object' } };
  }
  const next = { ...candidate, model: compactModel(core, candidate.model) };
  const check = core.estimate(next);
  // `error` is the core's {field, message, code, values}: the page words it (i18n.js errorMessage).
  if (check.error) return { scenario: defaults(), problem: { key: check.error.field, detail: check.error.message, error: check.error } };
  return { scenario: next, problem: null };
}

// The core's verdict on a price book, judged beside the default scenario (the page's own may be
// in error): {error} or {warnings} with their details (an unknown instance type is one). book.js
// takes it as its `check`.
export function checkBook(core, pricing) {
  const result = core.estimate({ ...defaults(), pricing });
  return result.error ? { error: result.error } : { warnings: result.warning_details ?? [] };
}
