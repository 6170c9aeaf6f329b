// The scenario keys the page edits (shared/spec/scenario.md plus the project's headroom, pricing
// and filters): how their text becomes a value, which workloads use them and where the inputs
// view puts them. The URL hash carries exactly these keys, so one table serves both.

export const TASKS = ['inference', 'full', 'lora', 'qlora', 'pretrain'];
const TRAINING = ['full', 'lora', 'qlora', 'pretrain'];
const ADAPTERS = ['lora', 'qlora'];

const ENGINES = {
  inference: ['vllm', 'sglang', 'lmdeploy', 'tensorrt-llm', 'transformers', 'llama.cpp'],
  training: ['deepspeed', 'fsdp', 'megatron', 'transformers'],
};

// kind: how a text value parses (int, num, bool, str, list); percent: shown as %, kept as a share.
// def: the core's default (spec), or a function of the task; shown while the key is unset.
// options: a select; a function of the catalog and task where the choices depend on them.
// group: the inputs view's place for it (cost: the ranking section's controls).
export const FIELDS = [
  { key: 'weights', kind: 'str', group: 'workload', options: (c) => c.weights,
    def: (task) => (task === 'qlora' ? 'nf4' : 'bf16') },
  { key: 'kv_cache', kind: 'str', group: 'workload', tasks: ['inference'], options: (c) => c.kv_cache, def: 'bf16' },
  { key: 'engine', kind: 'str', group: 'workload',
    options: (c, task) => ENGINES[task === 'inference' ? 'inference' : 'training'],
    def: (task) => (task === 'inference' ? 'vllm' : 'deepspeed') },
  { key: 'seq_len', kind: 'int', group: 'workload', min: 1, def: 2048 },
  { key: 'batch', kind: 'int', group: 'workload', min: 1, def: 1 },
  { key: 'training.optimizer', kind: 'str', group: 'training', tasks: TRAINING,
    options: () => ['adamw', 'adamw-8bit', 'paged-adamw-8bit', 'sgd', 'adafactor'], def: 'adamw' },
  { key: 'training.grad_checkpointing', kind: 'str', group: 'training', tasks: TRAINING,
    options: () => ['none', 'selective', 'full'], def: (task) => (ADAPTERS.includes(task) ? 'full' : 'none') },
  { key: 'training.zero', kind: 'int', group: 'training', tasks: TRAINING, options: () => [0, 1, 2, 3],
    def: 0 },
  { key: 'training.lora_rank', kind: 'int', group: 'training', tasks: ADAPTERS, min: 1, def: 8 },
  { key: 'training.lora_targets', kind: 'str', group: 'training', tasks: ADAPTERS,
    options: () => ['all-linear', 'attention', 'qv'], def: 'all-linear' },
  { key: 'training.tokens', kind: 'num', group: 'training', tasks: TRAINING, min: 0 },
  { key: 'gpu', kind: 'str', group: 'hardware', options: (c) => c.gpus.map((g) => g.id) },
  { key: 'gpus', kind: 'int', group: 'hardware', min: 1, def: 1 },
  { key: 'tp', kind: 'int', group: 'hardware', min: 1, def: 1 },
  { key: 'pp', kind: 'int', group: 'hardware', min: 1, def: 1 },
  { key: 'output_tokens', kind: 'int', group: 'advanced', tasks: ['inference'], min: 0 },
  { key: 'flash_attention', kind: 'bool', group: 'advanced', def: true },
  { key: 'training.master_weights', kind: 'bool', group: 'advanced', tasks: TRAINING, def: true },
  { key: 'training.offload_optimizer', kind: 'bool', group: 'advanced', tasks: TRAINING, def: false },
  { key: 'training.offload_params', kind: 'bool', group: 'advanced', tasks: TRAINING, def: false },
  { key: 'training.grad_accum', kind: 'int', group: 'advanced', tasks: TRAINING, min: 1, def: 1 },
  { key: 'efficiency.mfu', kind: 'num', percent: true, group: 'advanced', tasks: TRAINING },
  { key: 'efficiency.bandwidth', kind: 'num', percent: true, group: 'advanced', tasks: ['inference'] },
  { key: 'headroom', kind: 'num', percent: true, group: 'advanced', def: 0.1 },
  { key: 'pricing.currency', kind: 'str', group: 'cost', options: () => ['USD', 'CNY'], def: 'USD' },
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
export const defaultOf = (f, task) => (typeof f.def === 'function' ? f.def(task) : f.def);

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
