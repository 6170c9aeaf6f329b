// docs/errors.md lists every error and warning the core can give: each InputError message of
// core/src/*.cpp (by its first literal fragment of four or more characters: messages are built
// by concatenation, and a fragment like "\"" or " (" says nothing) and each warning code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const srcDir = join(root, 'core/src');
const doc = readFileSync(join(root, 'docs/errors.md'), 'utf8');
// error.cpp defines InputError and throw_input_error: it throws nothing of its own.
const sources = readdirSync(srcDir, { recursive: true }).filter((f) => f.endsWith('.cpp') && f !== 'base/error.cpp').map((f) => ({ file: f, text: readFileSync(join(srcDir, f), 'utf8') }));

const LITERAL = /"((?:[^"\\\n]|\\.)*)"/g;
const literals = (code) => [...code.matchAll(LITERAL)].map((m) => JSON.parse(`"${m[1]}"`));

// The top-level arguments of the call whose "(" is at `open`, as source text.
function callArguments(text, open) {
  const args = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      for (i++; text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (c === '(' || c === '{' || c === '[') {
      depth++;
    } else if (c === ')' || c === '}' || c === ']') {
      if (--depth === 0) {
        args.push(text.slice(start, i));
        return args;
      }
    } else if (c === ',' && depth === 1) {
      args.push(text.slice(start, i));
      start = i + 1;
    }
  }
  throw new Error(`unclosed call at ${open}`);
}

// The message's first telling fragment; a message held in a variable (`range + ...`, `bad`)
// is looked up in the variable's definition in the same file.
function messageFragment(text, message, at) {
  const variable = /^\s*([a-z_][a-z0-9_]*)\s*(\+|$)/i.exec(message);
  if (variable) {
    // The nearest definition before the call (json_reader.cpp defines `range` twice).
    const definitions = [...text.slice(0, at).matchAll(new RegExp(`std::string ${variable[1]} = ([^;]*);`, 'g'))];
    if (definitions.length > 0) message = definitions.at(-1)[1];
  }
  return literals(message).find((l) => l.length >= 4);
}

function inputErrors() {
  const found = [];
  for (const { file, text } of sources) {
    // throw_input_error (error.h) takes InputError's arguments.
    for (const m of text.matchAll(/(?<![A-Za-z0-9_])(?:InputError|throw_input_error)\(/g)) {
      const [field, message] = callArguments(text, m.index + m[0].length - 1);
      const fragment = messageFragment(text, message, m.index);
      // A rethrow with a prefixed field (api.cpp: "[i]." + e.field, e.what()) adds no message.
      if (fragment === undefined && /\.what\(\)/.test(message)) continue;
      found.push({ where: `${file}: InputError(${field.trim()}, ${message.trim().slice(0, 80)})`, fragment });
    }
  }
  return found;
}

// Warnings are {"code", field, message} pushed into a vector of Warning, their codes snake_case
// words ("zero_without_dp"). Launch commands ({"vllm", kVllmVersion, ...}) have no underscore;
// LinearModule lists ({"q_a", "attention", in, out, ...}) are told apart by their group names.
function warningCodes() {
  const groups = new Set(['attention', 'mlp', 'experts', 'router']);
  const codes = new Set();
  for (const { text } of sources) {
    for (const m of text.matchAll(/push_back\(\s*\{"([a-z][a-z0-9]*_[a-z0-9_]*)",\s*(?:"([a-z_.]*)")?/g)) {
      if (!groups.has(m[2])) codes.add(m[1]);
    }
  }
  return [...codes];
}

test('the scan finds the core\'s errors and warnings', () => {
  assert.ok(inputErrors().length >= 60, `only ${inputErrors().length} InputError calls found`);
  for (const code of ['bf16_unsupported', 'params_only_model', 'zero_without_dp', 'launch_does_not_fit']) {
    assert.ok(warningCodes().includes(code), code);
  }
});

test('every InputError message of core/src is in docs/errors.md', () => {
  const missing = inputErrors().filter((e) => e.fragment === undefined || !doc.includes(e.fragment));
  assert.deepEqual(missing.map((e) => `${e.where} -> ${JSON.stringify(e.fragment)}`), []);
});

test('every warning code of core/src is in docs/errors.md', () => {
  const missing = warningCodes().filter((code) => !doc.includes(`\`${code}\``));
  assert.deepEqual(missing, []);
});
