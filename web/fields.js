// The scenario keys the page edits (docs/scenario.md: the spec keys plus headroom, pricing
// and filters): how their text becomes a value, which workloads use them and where the inputs
// view puts them. The URL hash carries exactly these keys, so one table serves both.

// Which workloads use a key: a rule of the page's layout (training keys on training tabs, adapter
// keys on LoRA/QLoRA), not a list of choices. Every list of choices (tasks, engines, optimizers,
// checkpointing modes, LoRA targets, ZeRO stages, currencies, formats) and every default comes
// from the core's catalog() (docs/scenario.md, "Catalog"); tests/wasm/single-source.test.mjs
// fails if a copy appears here again.
const TRAINING = ['full', 'lora', 'qlora', 'pretrain'];
const ADAPTERS = ['lora', 'qlora'];

// kind: how a text value parses (int, num, bool, str, list); percent: shown as %, kept as a share.
// The default shown while a key is unset is the core's for the task (catalog.defaults), the
// currency the page's (CNY in Chinese, defaultCurrency in i18n.js).
// options: a select; a function of the catalog and task.
// group: the inputs view's place for it (cost: the ranking section's controls).
export const FIELDS = [
  { key: 'weights', kind: 'str', group: 'workload', options: (c) => c.weights },
  { key: 'kv_cache', kind: 'str', group: 'workload', tasks: ['inference'], options: (c) => c.kv_cache },
  { key: 'engine', kind: 'str', group: 'workload', options: (c, task) => c.engines[task === 'inference' ? 'inference' : 'training'] },
  { key: 'seq_len', kind: 'int', group: 'workload', min: 1 },
  { key: 'batch', kind: 'int', group: 'workload', min: 1 },
  { key: 'training.optimizer', kind: 'str', group: 'training', tasks: TRAINING, options: (c) => c.optimizers },
  { key: 'training.grad_checkpointing', kind: 'str', group: 'training', tasks: TRAINING, options: (c) => c.checkpointing },
  { key: 'training.zero', kind: 'int', group: 'training', tasks: TRAINING, options: (c) => c.zero_stages },
  { key: 'training.lora_rank', kind: 'int', group: 'training', tasks: ADAPTERS, min: 1 },
  { key: 'training.lora_targets', kind: 'str', group: 'training', tasks: ADAPTERS, options: (c) => c.lora_targets },
  { key: 'training.tokens', kind: 'num', group: 'training', tasks: TRAINING, min: 0 },
  { key: 'gpu', kind: 'str', group: 'hardware', options: (c) => c.gpus.map((g) => g.id) },
  { key: 'gpus', kind: 'int', group: 'hardware', min: 1 },
  { key: 'tp', kind: 'int', group: 'hardware', min: 1 },
  { key: 'pp', kind: 'int', group: 'hardware', min: 1 },
  { key: 'ep', kind: 'int', group: 'hardware', tasks: TRAINING, min: 1 },
  { key: 'output_tokens', kind: 'int', group: 'advanced', tasks: ['inference'], min: 0 },
  { key: 'flash_attention', kind: 'bool', group: 'advanced' },
  // The versions the core checked for each engine: catalog.engine_versions; a free text here.
  { key: 'engine_version', kind: 'str', group: 'advanced' },
  { key: 'training.master_weights', kind: 'bool', group: 'advanced', tasks: TRAINING },
  { key: 'training.offload_optimizer', kind: 'bool', group: 'advanced', tasks: TRAINING },
  { key: 'training.offload_params', kind: 'bool', group: 'advanced', tasks: TRAINING },
  { key: 'training.grad_accum', kind: 'int', group: 'advanced', tasks: TRAINING, min: 1 },
  { key: 'efficiency.mfu', kind: 'num', percent: true, group: 'advanced', tasks: TRAINING },
  { key: 'efficiency.bandwidth', kind: 'num', percent: true, group: 'advanced', tasks: ['inference'] },
  { key: 'headroom', kind: 'num', percent: true, group: 'advanced' },
  { key: 'pricing.currency', kind: 'str', group: 'cost', options: (c) => c.currencies },
  { key: 'pricing.cny_per_usd', kind: 'num', group: 'cost', min: 0 },
  { key: 'filters.max_gpus', kind: 'int', group: 'cost', min: 1 },
  { key: 'filters.providers', kind: 'list', group: 'cost',
    options: (c) => [...new Set(c.instances.map((i) => i.provider_id)), 'custom'] },  // 'custom': your own
  { key: 'filters.gpus', kind: 'list', group: 'cost', options: (c) => c.gpus.map((g) => g.id) },
  // Serving at a load (docs/planner.md): the ranking then buys replicas for this request rate.
  { key: 'load.requests_per_s', kind: 'num', group: 'cost', tasks: ['inference'], min: 0 },
  { key: 'load.ttft_s', kind: 'num', group: 'cost', tasks: ['inference'], min: 0 },
  { key: 'load.tpot_s', kind: 'num', group: 'cost', tasks: ['inference'], min: 0 },
];

export const field = (key) => FIELDS.find((f) => f.key === key);
export const appliesTo = (f, task) => !f.tasks || f.tasks.includes(task);
// The core's default for the task (catalog.defaults), or the page's currency; undefined where the
// core has none (the GPU, the token budget, the filters).
export function defaultOf(f, task, catalog, currency) {
  if (f.key === 'pricing.currency') return currency;
  return f.key.split('.').reduce((obj, part) => obj?.[part], catalog.defaults?.[task]);
}

// Text (from the URL or an input) to a value of the field's kind; throws an Error whose message
// is a code of what was expected ('bool', 'number', 'whole'), which i18n turns into words.
export function parseValue(f, text) {
  if (f.kind === 'str') return text;
  if (f.kind === 'list') return text.split(',').filter(Boolean);
  if (f.kind === 'bool') {
    if (text === 'true' || text === 'false') return text === 'true';
    throw new Error('bool');
  }
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) throw new Error('number');
  if (f.kind === 'int' && !Number.isInteger(n)) throw new Error('whole');
  return n;
}
