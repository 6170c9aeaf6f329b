// Every code the core gives with a message (errors, warnings, launch notes, launch blockers,
// "why it does not fit" reasons, unsupported-format kinds) is listed in docs/errors.md and has
// its Chinese wording in web/i18n.js: the page words messages from codes and values (issue 14),
// so a new code without a wording would reach a Chinese reader in English.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorMessage, hasEn, hasZh } from '../../web/i18n.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const srcDir = join(root, 'core/src');
const doc = readFileSync(join(root, 'docs/errors.md'), 'utf8');
const text = readdirSync(srcDir, { recursive: true }).filter((f) => f.endsWith('.cpp')).map((f) => readFileSync(join(srcDir, f), 'utf8')).join('\n');
const all = (re) => [...new Set([...text.matchAll(re)].map((m) => m[1]))];

// InputError(field, message, "code", ...) or throw_input_error(...) (the same arguments, error.h):
// the third argument when it is a literal, with the literals of the second (the English message)
// of each of its call sites.
const errorSites = () => {
  const sites = [];
  for (const m of text.matchAll(/(?:InputError|throw_input_error)\(/g)) {
    let depth = 0;
    let args = 0;
    let code = null;
    const message = [];
    for (let i = m.index + m[0].length - 1; i < text.length; i++) {
      const c = text[i];
      if (c === '"') {
        let j = i + 1;
        while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
        if (depth === 1 && args === 2) code = text.slice(i + 1, j);
        if (args === 1) message.push(text.slice(i + 1, j));
        i = j;
      } else if ('({['.includes(c)) depth++;
      else if (')}]'.includes(c)) { if (--depth === 0) break; }
      else if (c === ',' && depth === 1) args++;
    }
    if (code) sites.push({ code, message: message.join('') });
  }
  return sites;
};
const errorCodes = () => [...new Set(errorSites().map((s) => s.code))];

const KINDS = {
  error: { codes: errorCodes, key: (c) => `e.${c}` },
  // {"code", field, ...} pushed into a vector of Warning; LinearModule lists ({"q_a", "attention",
  // ...}) are told apart by their names.
  warning: { codes: () => all(/push_back\(\s*\{"([a-z][a-z0-9]*_[a-z0-9_]*)",/g)
    .filter((c) => !/^(q_[ab]|kv_[ab]|shared_expert_gate|linear_[a-z]+)$/.test(c)),
  key: (c) => (c === 'format_unsupported' ? 'w.format_unsupported.awq_volta' : `w.${c}`) },
  note: { codes: () => all(/add_note\(\s*out,\s*"([a-z0-9_]+)"/g).concat(['kv_capacity', 'cheapest_not_launchable']), key: (c) => (c === 'no_marlin' ? 'n.no_marlin.cuda' : `n.${c}`) },
  blocker: { codes: () => all(/d\["code"\] = "([a-z_]+)"/g), key: (c) => `why.${c}` },
  reason: { codes: () => all(/reason_code(?:"\])? = (?:shown \? "[a-z_]+" : )?"([a-z_]+)"/g).concat(['too_large']),
    key: (c) => (c === 'format_unsupported' ? 'w.format_unsupported.awq_volta' : `rs.${c}`) },
  format: { codes: () => all(/\bk = "([a-z0-9_]+)"/g)
    .concat([...text.matchAll(/\bk = [^;]*\? "([a-z0-9_]+)" : "([a-z0-9_]+)";/g)].flatMap((m) => [m[1], m[2]])),
    key: (c) => `w.format_unsupported.${c}` },
};

test('the scan finds the codes of each kind', () => {
  const counts = Object.fromEntries(Object.entries(KINDS).map(([kind, k]) => [kind, k.codes().length]));
  assert.ok(counts.error >= 25, JSON.stringify(counts));
  assert.ok(counts.warning >= 20, JSON.stringify(counts));
  assert.ok(counts.note >= 40, JSON.stringify(counts));
  assert.ok(counts.blocker >= 8, JSON.stringify(counts));
  assert.ok(counts.reason >= 4, JSON.stringify(counts));
  assert.ok(counts.format >= 4, JSON.stringify(counts));
});

for (const [kind, { codes, key }] of Object.entries(KINDS)) {
  test(`every ${kind} code of core/src has its Chinese wording in web/i18n.js`, () => {
    assert.deepEqual(codes().filter((c) => !hasZh(key(c))), []);
  });
  test(`every ${kind} code of core/src is in docs/errors.md`, () => {
    assert.deepEqual(codes().filter((c) => !doc.includes(`\`${c}\``)), []);
  });
}

// The English page shows the core's own message for an error code that has no English wording in
// web/i18n.js ('' there: the core's words were the page's). That text must suit a page reader:
// no pointer to a CLI command (`gpusizer gpus`) at any of the code's call sites.
test('an error code the page leaves to the core\'s English has no CLI pointer in its messages', () => {
  const left = errorSites().filter(({ code }) => !hasEn(`e.${code}`));
  assert.ok(left.length >= 20, `${left.length} call sites`);
  assert.deepEqual(left.filter(({ message }) => /`|gpusizer /.test(message)), []);
});

test('in English an error shows the page\'s wording where it has one, else the core\'s message', () => {
  assert.equal(errorMessage({ code: 'null', message: 'must not be null: leave the key out to get its default' }),
    'must not be null: leave the key out to get its default');
  assert.equal(errorMessage({ code: 'tp_heads', message: 'must divide the attention heads (40)', values: { heads: 40 } }),
    'must divide the attention heads (40)');
  assert.equal(errorMessage({ code: 'unknown_gpu', message: 'unknown GPU id "h999" (see `gpusizer gpus`)', values: { id: 'h999' } }),
    'unknown GPU “h999”');
  assert.equal(errorMessage({ code: 'no_such_code_yet', message: 'a new message' }), 'a new message');
});
