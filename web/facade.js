// The page's one door to the core (squoosh's pattern): the wasm is loaded once and its promise
// cached; calls take and return plain objects; bad input comes back as a value
// {error: {field, message}}, never as an exception. './gpusizer.mjs' (Emscripten's ES module) and
// './gpusizer-wasm.js' (the wasm as text, see wasm-bytes.js) are build outputs that
// scripts/build-page.mjs places beside the bundle, or inlines into the offline file.
import { wasmFromText } from './wasm-bytes.js';

let loading = null;

export function loadCore() {
  loading ??= Promise.all([import('./gpusizer.mjs'), import('./gpusizer-wasm.js')])
    .then(([glue, wasm]) => glue.default({ wasmBinary: wasmFromText(wasm.default) })).then(wrap);
  return loading;
}

function wrap(module) {
  const call = (command, input) => {
    try {
      return JSON.parse(module[command](JSON.stringify(input)));
    } catch (error) {  // the binding never throws; this keeps a broken module from breaking the page
      return { error: { field: 'input', message: String(error) } };
    }
  };
  return {
    catalog: () => JSON.parse(module.catalog()),
    estimate: (scenario) => call('estimate', scenario),  // a scenario, or an array of them
    rank: (scenario) => call('rank', scenario),
    table: (scenario) => call('table', scenario),
    takes: (scenario) => call('takes', scenario),
    fits: (scenario) => call('fits', scenario),  // {gpus: [{gpu, fits, per_gpu_bytes, usable_bytes, memory_bytes}]}
    launch: (input) => call('launch', input),
    configKeys: (config) => call('config_keys', config),  // {keys}: what the core reads of a config.json
  };
}
