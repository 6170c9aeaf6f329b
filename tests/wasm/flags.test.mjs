// Every command of every fitting ranked plan uses only flags and config keys that exist in the
// version of its tool that the command says it was checked against. The lists are the fixtures in
// tests/fixtures/flags/*.json, each extracted from the tool's own source at a recorded commit
// (repo + commit in the file). For ~60 serving and training scenarios the test ranks the plans,
// launches up to five fitting ones and checks each command:
//   shell: tokenized (backslash-newline continuations, quotes, leading VAR=value assignments);
//          every token starting with '-' (--x=y split) must be a flag of the program's fixture,
//          a value given to a flag with recorded choices must be one of them; after the user
//          script of torchrun / deepspeed (train.py) the flags are the script's, i.e. the Hugging
//          Face TrainingArguments fields (inherited_keys of the ms-swift fixture);
//   yaml:  every key (top level) in the fixture's keys (plus inherited_keys), choice values too;
//   json:  DeepSpeed's ds_config.json, top-level keys and each nested section the fixture lists.
// A fixture version that differs from the version the command names is reported as a diagnostic,
// not a failure. A flag or key missing from its fixture fails the test: that is a bug to fix in
// the core (or a fixture to extend from source, never by hand-written allow-lists).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const { default: createGpusizer } = await import(pathToFileURL(join(root, 'dist/gpusizer.mjs')).href);
const core = await createGpusizer({ wasmBinary: new Uint8Array(await readFile(join(root, 'dist/gpusizer.wasm'))) });

// ---- fixtures --------------------------------------------------------------------------------

const fixtureDir = join(root, 'tests/fixtures/flags');
const FIXTURES = {};
for (const name of (await readdir(fixtureDir)).filter((f) => f.endsWith('.json')).sort()) {
  const fx = JSON.parse(await readFile(join(fixtureDir, name), 'utf8'));
  FIXTURES[fx.engine] = { ...fx, file: name };
}

// The fixture of a command: by its tool field, then by the program the shell text runs.
// Returns {fixture, program, flagSet, choices} or {missing: reason}.
function fixtureFor(cmd, program) {
  const byTool = {
    vllm: 'vllm', sglang: 'sglang', lmdeploy: 'lmdeploy', 'tensorrt-llm': 'tensorrt-llm', 'llama.cpp': 'llama.cpp',
    'ms-swift': 'ms-swift', 'llama-factory': 'llama-factory', torchrun: 'torchrun',
    'megatron-lm': 'torchrun',  // torchrun's own flags; pretrain_gpt.py's are Megatron-LM's (below)
    'megatron-swift': 'megatron-swift',  // ms-swift's megatron sft (MegatronTrainArguments)
  };
  let engine = byTool[cmd.tool];
  if (cmd.tool === 'deepspeed') engine = cmd.kind === 'json' ? 'deepspeed-config' : 'deepspeed-launcher';
  if (cmd.tool === 'tensorrt-llm' && cmd.kind === 'yaml') engine = 'tensorrt-llm-llm-args';
  const fx = engine && FIXTURES[engine];
  if (!fx) return { missing: `no fixture for tool ${cmd.tool} (${cmd.kind}${cmd.filename ? ' ' + cmd.filename : ''})` };
  return { fixture: fx, program };
}

// Flags a fixture accepts for a program ("swift sft" uses flags_by_command when present), plus
// the Hugging Face TrainingArguments fields a dataclass parser inherits (inherited_keys).
function flagSetOf(fx, program) {
  const set = new Set();
  const byCmd = fx.flags_by_command?.[program];
  for (const f of byCmd ?? fx.flags ?? []) set.add(f);
  if (program !== 'swift deploy') for (const k of fx.inherited_keys?.keys ?? []) set.add(`--${k}`);
  return set;
}

// HfArgumentParser (ms-swift, a user's train.py): --field_name exactly as the fixture lists it.
function dataclassFlag(set, flag) {
  return set.has(flag);
}

// ---- shell tokenizer -------------------------------------------------------------------------

// POSIX-ish: backslash-newline joins lines, single and double quotes, backslash escapes.
function tokenize(text) {
  const src = text.replace(/\\\r?\n/g, ' ');
  const out = [];
  let cur = null;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (ch === "'") {
      const j = src.indexOf("'", i + 1);
      assert.ok(j >= 0, `unterminated ' in ${text}`);
      cur = (cur ?? '') + src.slice(i + 1, j);
      i = j;
    } else if (ch === '"') {
      let j = i + 1, s = '';
      for (; j < src.length && src[j] !== '"'; j++) s += src[j] === '\\' && '"\\$`'.includes(src[j + 1]) ? src[++j] : src[j];
      assert.ok(j < src.length, `unterminated " in ${text}`);
      cur = (cur ?? '') + s;
      i = j;
    } else if (ch === '\\') {
      cur = (cur ?? '') + (src[++i] ?? '');
    } else if (/\s/.test(ch)) {
      if (ch === '\n' && cur === null && out.length) out.push('\n');
      if (cur !== null) out.push(cur);
      cur = null;
      if (ch === '\n') out.push('\n');
    } else if (ch === '#' && cur === null) {
      while (i < src.length && src[i] !== '\n') i++;
      i--;
    } else {
      cur = (cur ?? '') + ch;
    }
  }
  if (cur !== null) out.push(cur);
  // Split into simple commands at newlines, ';' and '&&'.
  const commands = [];
  let words = [];
  for (const t of out) {
    if (t === '\n' || t === ';' || t === '&&') {
      if (words.length) commands.push(words);
      words = [];
    } else words.push(t);
  }
  if (words.length) commands.push(words);
  return commands;
}

// One simple command: leading env assignments, the program ("vllm serve", "swift sft",
// "python -m sglang.launch_server", ...) and its arguments.
function splitCommand(words) {
  let i = 0;
  const env = {};
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i])) {
    const [k, ...v] = words[i].split('=');
    env[k] = v.join('=');
    i++;
  }
  const prog = words[i];
  const rest = words.slice(i + 1);
  const sub = (n) => [prog, ...rest.slice(0, n)].join(' ');
  let program = prog, args = rest;
  if (prog === 'vllm' || prog === 'swift' || prog === 'megatron' || prog === 'trtllm-serve' || prog === 'llamafactory-cli') {
    // vllm serve, swift deploy|sft|pt|export, megatron sft, trtllm-serve [serve], llamafactory-cli train
    if (rest[0] && !rest[0].startsWith('-')) { program = sub(1); args = rest.slice(1); }
  } else if (prog === 'lmdeploy') {
    program = sub(2); args = rest.slice(2);  // lmdeploy serve api_server
  } else if (/^python[0-9.]*$/.test(prog) && rest[0] === '-m') {
    program = `python -m ${rest[1]}`; args = rest.slice(2);
  }
  return { env, program, args };
}

// ---- checks ----------------------------------------------------------------------------------

const failures = [];         // {tool, what, item, scenario, detail}
const versionNotes = new Set();
const coverage = new Map();  // tool -> count of commands
const missingFixtures = new Map();

function fail(tool, what, item, scenario, detail = '') {
  failures.push({ tool, what, item, scenario, detail });
}

function versionOf(text) {
  const m = /(\d+(?:\.\d+)+)/.exec(text ?? '');
  return m ? m[1] : null;
}

function noteVersion(cmd, fx) {
  const v = versionOf(cmd.version_checked);
  if (v !== String(fx.version)) {
    versionNotes.add(`${cmd.tool}: command says "${cmd.version_checked}", fixture ${fx.file} is version ${fx.version}` +
      `${fx.ref ? ` (${fx.ref})` : ''} at ${fx.repo}@${fx.commit ?? 'no commit'}`);
  }
}

function choiceOk(choices, value) {
  if (!Array.isArray(choices)) return true;  // an unevaluated expression ({__expr__}): not checked
  return choices.some((c) => String(c) === String(value) || (typeof c === 'string' && c.startsWith(`${value} (`)));
}

// Arguments of one program against one fixture's flag set.
function checkArgs(tool, fx, program, args, scenario, flagSet, choices, isDataclass) {
  for (let i = 0; i < args.length; i++) {
    const tok = args[i];
    if (!tok.startsWith('-') || /^-\d/.test(tok)) continue;
    const eq = tok.indexOf('=');
    const flag = eq > 0 ? tok.slice(0, eq) : tok;
    const value = eq > 0 ? tok.slice(eq + 1) : (args[i + 1] !== undefined && !args[i + 1].startsWith('-') ? args[i + 1] : undefined);
    const known = isDataclass ? dataclassFlag(flagSet, flag) : flagSet.has(flag);
    if (!known) {
      // argparse (allow_abbrev) would take a unique prefix; still not an option string of the tool.
      const longer = fx.allow_abbrev && flag.startsWith('--') ? [...flagSet].filter((f) => f.startsWith(flag)) : [];
      const hint = longer.length === 1 ? ` (only an argparse abbreviation of ${longer[0]})` : '';
      fail(tool, `flag not in ${fx.file} (${program})`, flag, scenario, tok + (value !== undefined && eq < 0 ? ` ${value}` : '') + hint);
      continue;
    }
    const ch = choices?.[flag] ?? choices?.[flag.replaceAll('-', '_')];
    if (ch !== undefined && value !== undefined && !choiceOk(ch, value)) {
      fail(tool, `value not in choices of ${fx.file}`, `${flag} ${value}`, scenario, `choices: ${JSON.stringify(ch)}`);
    }
  }
}

// The user script of a launcher: arguments after it go to the script (a HF Trainer train.py).
function splitAtScript(args) {
  const k = args.findIndex((a) => /\.py$/.test(a));
  return k < 0 ? [args, []] : [args.slice(0, k), args.slice(k + 1)];
}

function trainerFlags() {
  const fx = FIXTURES['ms-swift'];
  const keys = fx?.inherited_keys?.keys;
  return keys ? { fx: { ...fx, file: `${fx.file} inherited_keys (transformers TrainingArguments)` }, set: new Set(keys.map((k) => `--${k}`)), choices: fx.inherited_keys.choices } : null;
}

function checkShell(cmd, scenario) {
  const { fixture: fx, missing } = fixtureFor(cmd, null);
  if (missing) { missingFixtures.set(missing, scenario); fail(cmd.tool, 'no fixture', `${cmd.tool} ${cmd.kind}`, scenario, missing); return; }
  noteVersion(cmd, fx);
  for (const words of tokenize(cmd.text)) {
    const { program, args } = splitCommand(words);
    if (program === undefined) continue;  // only assignments
    let [own, scriptArgs] = [args, []];
    if (cmd.tool === 'torchrun' || cmd.tool === 'megatron-lm' || (cmd.tool === 'deepspeed' && cmd.kind === 'shell')) [own, scriptArgs] = splitAtScript(args);
    const flagless = fx.flags_by_command ? !(program in fx.flags_by_command) : false;
    if (flagless && own.some((a) => a.startsWith('-'))) {
      fail(cmd.tool, `program not in ${fx.file}`, program, scenario, words.join(' '));
      continue;
    }
    const dataclass = cmd.tool === 'ms-swift' || cmd.tool === 'megatron-swift';
    if (!fx.flags?.length && !fx.flags_by_command && own.some((a) => a.startsWith('-'))) {
      fail(cmd.tool, `fixture ${fx.file} has no flag list`, program, scenario, 'flags not extracted');
      continue;
    }
    checkArgs(cmd.tool, fx, program, own, scenario, flagSetOf(fx, program), fx.choices, dataclass);
    if (scriptArgs.length && cmd.tool === 'megatron-lm') {
      const mg = FIXTURES['megatron-lm'];
      if (!mg) fail(cmd.tool, 'no fixture', 'pretrain_gpt.py', scenario, 'megatron-lm fixture missing');
      else checkArgs('megatron-lm pretrain_gpt.py', mg, 'pretrain_gpt.py', scriptArgs, scenario, new Set(mg.flags), mg.choices, false);
    } else if (scriptArgs.length) {
      const tf = trainerFlags();
      if (!tf) fail(cmd.tool, 'no fixture', 'train.py (HF TrainingArguments)', scenario, 'inherited_keys missing');
      else checkArgs(`${cmd.tool} train.py`, tf.fx, 'train.py', scriptArgs, scenario, tf.set, tf.choices, true);
    }
  }
}

function checkKeys(tool, fx, obj, allowed, path, scenario, choices) {
  for (const [k, v] of Object.entries(obj)) {
    const key = path ? `${path}.${k}` : k;
    if (!allowed.has(k)) { fail(tool, `key not in ${fx.file}`, key, scenario, JSON.stringify(v)); continue; }
    const ch = choices?.[k];
    if (ch !== undefined && (typeof v !== 'object' || v === null) && !choiceOk(ch, v)) {
      fail(tool, `value not in choices of ${fx.file}`, `${key}: ${v}`, scenario, `choices: ${JSON.stringify(ch)}`);
    }
  }
}

function checkFile(cmd, scenario) {
  const { fixture: fx, missing } = fixtureFor(cmd, null);
  // A config file whose schema no fixture holds yet (TensorRT-LLM's llm_args.py) is listed as
  // unchecked in the diagnostics, not passed as checked.
  if (missing) { missingFixtures.set(missing, scenario); return; }
  noteVersion(cmd, fx);
  const doc = cmd.kind === 'json' ? JSON.parse(cmd.text) : parseYaml(cmd.text);
  assert.ok(doc && typeof doc === 'object', `${cmd.filename} is no mapping`);
  const top = new Set([...(fx.keys ?? []), ...(fx.inherited_keys?.keys ?? [])]);
  checkKeys(cmd.tool, fx, doc, top, '', scenario, { ...(fx.inherited_keys?.choices ?? {}), ...(fx.choices ?? {}) });
  // Nested sections (DeepSpeed: zero_optimization, zero_optimization.offload_param, fp16, bf16 ...).
  const walk = (obj, path) => {
    for (const [k, v] of Object.entries(obj)) {
      if (!v || typeof v !== 'object' || Array.isArray(v)) continue;
      const p = path ? `${path}.${k}` : k;
      const section = fx.sections?.[p];
      if (section) {
        checkKeys(cmd.tool, fx, v, new Set(section), p, scenario, null);
        walk(v, p);
      } else if (fx.sections) {
        fail(cmd.tool, `section not in ${fx.file}`, p, scenario, JSON.stringify(v));
      }
    }
  };
  walk(doc, '');
}

function checkCommand(cmd, scenario) {
  coverage.set(cmd.tool, (coverage.get(cmd.tool) ?? 0) + 1);
  assert.ok(typeof cmd.text === 'string' && cmd.text.endsWith('\n'), `${cmd.tool}: text ends with a newline`);
  if (cmd.kind === 'shell') checkShell(cmd, scenario);
  else if (cmd.kind === 'json' || cmd.kind === 'yaml') checkFile(cmd, scenario);
  else fail(cmd.tool, 'unknown kind', cmd.kind, scenario);
}

// ---- scenarios -------------------------------------------------------------------------------

const S = [
  // vLLM: dense, MoE, quantized, fp8 KV, big models over several GPUs and nodes
  { model: 'qwen2.5-7b', batch: 4 },
  { model: 'llama-3.1-8b', seq_len: 8192, batch: 16, kv_cache: 'fp8' },
  { model: 'qwen2.5-72b', weights: 'awq-int4', batch: 8, seq_len: 8192 },
  { model: 'llama-3.1-70b', weights: 'gptq-int4', batch: 4, seq_len: 4096 },
  { model: 'llama-3.1-70b', weights: 'fp8', kv_cache: 'fp8', batch: 32, seq_len: 8192 },
  { model: 'llama-3.1-405b', weights: 'fp8', batch: 8, seq_len: 8192 },
  { model: 'deepseek-v3', weights: 'fp8', batch: 8, seq_len: 16384 },
  { model: 'mixtral-8x7b', weights: 'awq-int4', batch: 8 },
  { model: 'qwen3-30b-a3b', batch: 16, seq_len: 16384 },
  { model: 'qwen3-235b-a22b', weights: 'fp8', batch: 4, seq_len: 8192 },
  { model: 'gpt-oss-120b', weights: 'mxfp4', batch: 8 },
  { model: 'qwen2.5-0.5b', weights: 'int8', batch: 64 },
  { model: 'gemma-2-27b', weights: 'fp8', kv_cache: 'fp8', batch: 32, seq_len: 8192, filters: { gpus: ['h100-80gb', 'l40s'] } },
  { model: 'qwen2.5-7b', weights: 'gptq-int4', filters: { gpus: ['t4'] }, batch: 2 },
  { model: 'llama-3.1-8b', batch: 256, seq_len: 4096, filters: { gpus: ['a10g', 'l4'] } },
  { model: 'mistral-7b', load: { requests_per_s: 20, ttft_s: 2, tpot_s: 0.1 } },
  { model: 'llama-3.3-70b', weights: 'nf4', batch: 2 },
  // SGLang
  { model: 'qwen2.5-7b', engine: 'sglang', batch: 8 },
  { model: 'deepseek-v3', engine: 'sglang', weights: 'fp8', batch: 16, seq_len: 8192 },
  { model: 'llama-3.1-70b', engine: 'sglang', weights: 'awq-int4', batch: 8, kv_cache: 'fp8' },
  { model: 'qwen3-32b', engine: 'sglang', weights: 'gptq-int4', batch: 4 },
  { model: 'mixtral-8x22b', engine: 'sglang', weights: 'fp8', batch: 8 },
  { model: 'llama-3.1-405b', engine: 'sglang', weights: 'fp8', batch: 4, seq_len: 4096 },
  { model: 'qwen2.5-14b', engine: 'sglang', weights: 'int8', kv_cache: 'fp8', batch: 16 },
  // LMDeploy
  { model: 'qwen2.5-7b', engine: 'lmdeploy', kv_cache: 'int8', batch: 8 },
  { model: 'internlm2-20b', engine: 'lmdeploy', weights: 'awq-int4', batch: 4 },
  { model: 'qwen2.5-72b', engine: 'lmdeploy', weights: 'awq-int4', kv_cache: 'int4', batch: 8, seq_len: 8192 },
  { model: 'llama-3.1-70b', engine: 'lmdeploy', batch: 4, seq_len: 4096 },
  { model: 'qwen3-30b-a3b', engine: 'lmdeploy', weights: 'fp8', batch: 8 },
  { model: 'qwen2.5-14b', engine: 'lmdeploy', weights: 'gptq-int4', batch: 8 },
  // TensorRT-LLM
  { model: 'llama-3.1-8b', engine: 'tensorrt-llm', kv_cache: 'fp8', batch: 16 },
  { model: 'llama-3.1-70b', engine: 'tensorrt-llm', weights: 'fp8', batch: 8, seq_len: 8192 },
  { model: 'qwen2.5-72b', engine: 'tensorrt-llm', weights: 'awq-int4', batch: 4 },
  { model: 'mixtral-8x7b', engine: 'tensorrt-llm', batch: 8, kv_cache: 'fp8' },
  { model: 'llama-3.1-405b', engine: 'tensorrt-llm', weights: 'fp8', batch: 4, seq_len: 4096 },
  // llama.cpp
  { model: 'qwen2.5-7b', engine: 'llama.cpp', weights: 'q4_k_m', batch: 3, seq_len: 4096 },
  { model: 'llama-3.1-70b', engine: 'llama.cpp', weights: 'q4_k_m', batch: 1, seq_len: 8192 },
  { model: 'llama-3.1-8b', engine: 'llama.cpp', weights: 'q8_0', kv_cache: 'int8', batch: 4 },
  { model: 'mixtral-8x7b', engine: 'llama.cpp', weights: 'q5_k_m', batch: 2 },
  { model: 'qwen2.5-32b', engine: 'llama.cpp', weights: 'q6_k', batch: 2, kv_cache: 'fp16' },
  { model: 'llama-3.2-3b', engine: 'llama.cpp', weights: 'bf16', batch: 8 },
  // transformers serving (swift deploy --infer_backend pt)
  { model: 'qwen2.5-7b', engine: 'transformers', batch: 2 },
  { model: 'llama-2-70b', engine: 'transformers', weights: 'nf4', batch: 1 },
  { model: 'qwen2.5-14b', engine: 'transformers', weights: 'gptq-int4', batch: 4 },
  { model: 'phi-4', engine: 'transformers', weights: 'int8', batch: 2 },
  // Training: LoRA / QLoRA / full / pretrain under each stack
  { model: 'qwen2.5-7b', task: 'lora', batch: 4, training: { lora_rank: 16 } },
  { model: 'qwen2.5-7b', task: 'qlora', batch: 4, training: { lora_rank: 32, grad_accum: 2 } },
  { model: 'llama-3.1-8b', task: 'full', batch: 2, seq_len: 4096, training: { zero: 2 } },
  { model: 'llama-3.1-8b', task: 'full', batch: 1, training: { zero: 3, offload_optimizer: true, offload_params: true } },
  { model: 'llama-3.1-70b', task: 'full', seq_len: 4096, batch: 2, training: { zero: 3, grad_accum: 4, grad_checkpointing: 'full', offload_optimizer: true } },
  { model: 'llama-3.1-70b', task: 'qlora', batch: 1, training: { lora_targets: 'attention', optimizer: 'paged-adamw-8bit' } },
  { model: 'llama-3.1-70b', task: 'lora', batch: 2, training: { zero: 3, lora_targets: 'qv' } },
  { model: 'qwen2.5-72b', task: 'qlora', batch: 1, training: { zero: 3 } },
  { model: 'qwen2.5-7b', task: 'full', engine: 'fsdp', batch: 2, training: { zero: 3 } },
  { model: 'llama-3.1-8b', task: 'lora', engine: 'fsdp', batch: 4 },
  { model: 'llama-3.1-70b', task: 'full', engine: 'megatron', batch: 1, seq_len: 4096 },
  { model: 'qwen3-30b-a3b', task: 'full', engine: 'megatron', batch: 1, seq_len: 4096, training: { tokens: 2e9, grad_checkpointing: 'selective' } },
  { model: 'qwen2.5-7b', task: 'lora', engine: 'megatron', batch: 2, training: { grad_checkpointing: 'full' } },
  { model: 'qwen2.5-7b', task: 'pretrain', engine: 'megatron', batch: 4, training: { tokens: 1e10 } },
  { model: 'llama-3.2-1b', task: 'pretrain', batch: 4, seq_len: 4096, training: { tokens: 1e11, grad_checkpointing: 'full', zero: 1 } },
  { model: 'qwen3-30b-a3b', task: 'pretrain', batch: 1, seq_len: 4096, training: { zero: 1, grad_checkpointing: 'selective' } },
  { model: 'qwen2.5-1.5b', task: 'pretrain', batch: 8, training: { zero: 1, optimizer: 'adamw-8bit' } },
  { model: 'llama-3.2-1b', task: 'full', engine: 'transformers', batch: 4, training: { optimizer: 'adafactor' } },
  { model: 'qwen2.5-3b', task: 'lora', engine: 'transformers', batch: 8, training: { optimizer: 'sgd' } },
  { model: 'qwen2.5-7b', task: 'lora', gpu: 'v100-32gb', gpus: 2, training: { zero: 2 } },
  { model: 'mixtral-8x7b', task: 'lora', batch: 1, training: { zero: 3 } },
  { model: 'qwen3-30b-a3b', task: 'qlora', batch: 2, weights: 'nf4' },
  { model: 'llama-3.1-8b', task: 'full', batch: 4, training: { zero: 0, master_weights: false } },
  { model: 'qwen2.5-14b', task: 'full', batch: 1, training: { zero: 2, offload_optimizer: true }, filters: { max_gpus: 8 } },
  { model: 'llama-3.1-405b', task: 'lora', batch: 1, seq_len: 2048, training: { zero: 3 } },
  { model: 'qwen2.5-32b', task: 'qlora', batch: 2, weights: 'int4', training: { zero: 3 } },
  // Several nodes: multi-node flags of each launcher and engine
  { model: 'llama-3.1-405b', task: 'full', batch: 1, training: { zero: 3, grad_checkpointing: 'full' }, filters: { gpus: ['h100-80gb'] } },
  { model: 'llama-3.1-70b', task: 'full', batch: 2, training: { zero: 3, grad_checkpointing: 'full', offload_optimizer: true }, filters: { gpus: ['a100-40gb'] } },
  { model: 'deepseek-v3', engine: 'sglang', batch: 4, seq_len: 4096, filters: { gpus: ['h100-80gb'] } },
  { model: 'llama-3.1-405b', batch: 4, seq_len: 4096, filters: { gpus: ['a100-80gb'] } },
  { model: 'llama-3.1-405b', engine: 'tensorrt-llm', batch: 4, seq_len: 4096, filters: { gpus: ['h100-80gb'] } },
];

// Plans that fit: up to five of the ranking, then launched one by one.
const counts = { scenarios: 0, plans: 0, multiNode: 0, launched: 0, commands: 0, noCommand: 0 };
const MAX_PLANS = 5;

for (const [i, scenario] of S.entries()) {
  const label = `[${i}] ${JSON.stringify(scenario)}`;
  test(label, () => {
    const ranked = JSON.parse(core.rank(JSON.stringify(scenario)));
    assert.equal(ranked.error, undefined, `rank: ${JSON.stringify(ranked.error)}`);
    const plans = (ranked.plans ?? []).filter((p) => p.fits).slice(0, MAX_PLANS);
    counts.scenarios++;
    assert.ok(plans.length > 0, `${label}: no fitting plan`);
    const before = failures.length;
    for (const plan of plans) {
      counts.plans++;
      if (plan.instances > 1) counts.multiNode++;
      const where = `${label} plan ${plan.instance ?? plan.gpu} x${plan.instances} (tp ${plan.tp}, pp ${plan.pp}, zero ${plan.zero})`;
      const out = JSON.parse(core.launch(JSON.stringify({ ...scenario, plan })));
      if (out.error) { fail('launch', 'launch error', out.error.field, where, out.error.message); continue; }
      counts.launched++;
      if (!out.commands.length) { counts.noCommand++; continue; }
      for (const cmd of out.commands) { counts.commands++; checkCommand(cmd, where); }
    }
    const mine = failures.slice(before);
    assert.deepEqual(mine.map((f) => `${f.tool}: ${f.what}: ${f.item}`), [], mine.map((f) => `${f.tool} ${f.item} (${f.detail})`).join('\n'));
  });
}

test('the checker fails an unknown flag, a bad choice and an unknown ds_config key', () => {
  const before = failures.length;
  checkCommand({ tool: 'vllm', version_checked: 'vLLM 0.11', kind: 'shell', text: 'vllm serve m \\\n  --no-such-flag 1 \\\n  --dtype int3\n' }, 'self-test');
  checkCommand({ tool: 'deepspeed', version_checked: 'DeepSpeed 0.17', kind: 'json', filename: 'ds_config.json',
    text: '{"train_batch_size": 1, "zero_optimization": {"stage": 1, "no_such_key": true}}\n' }, 'self-test');
  const got = failures.splice(before).map((f) => f.item);
  assert.deepEqual(got, ['--no-such-flag', '--dtype int3', 'zero_optimization.no_such_key']);
});

test('the tokenizer reads continuations, assignments and quotes', () => {
  const [words] = tokenize('CUDA_VISIBLE_DEVICES=0,1 NPROC_PER_NODE=2 \\\nswift sft \\\n  --model "a b" \\\n  --x=\'y z\'\n');
  assert.deepEqual(splitCommand(words), { env: { CUDA_VISIBLE_DEVICES: '0,1', NPROC_PER_NODE: '2' }, program: 'swift sft', args: ['--model', 'a b', '--x=y z'] });
  assert.deepEqual(tokenize('a b\nc d\n'), [['a', 'b'], ['c', 'd']]);
});

after(() => {
  const distinct = new Map();
  for (const f of failures) {
    const key = `${f.tool} | ${f.what} | ${f.item}`;
    if (!distinct.has(key)) distinct.set(key, { ...f, n: 0 });
    distinct.get(key).n++;
  }
  const lines = [
    `flags: ${counts.scenarios} scenarios, ${counts.plans} fitting plans (${counts.multiNode} over several nodes), ${counts.launched} launched ` +
      `(${counts.noCommand} without a command), ${counts.commands} commands checked`,
    `commands per tool: ${[...coverage].map(([t, n]) => `${t} ${n}`).join(', ')}`,
    ...[...versionNotes].map((v) => `version: ${v}`),
    `distinct failures: ${distinct.size}`,
    ...[...distinct.values()].map((f) => `FAIL ${f.tool} | ${f.what} | ${f.item} | x${f.n} | e.g. ${f.scenario} | ${f.detail}`),
  ];
  console.log(lines.join('\n'));
});
