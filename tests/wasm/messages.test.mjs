// The core's message list (the `messages` command, core/src/base/messages.cpp) against the page and
// the docs: every code has the page's Chinese wording (web/i18n.js) and is in docs/errors.md, and
// the page words no code the core does not have. The English is the core's own message unless the
// page has its own wording for the code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { hasEn, hasZh, wordingKeys, wordedCodes } from '../../web/i18n.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const { default: createGpusizer } = await import(pathToFileURL(join(root, 'dist/gpusizer.mjs')).href);
const core = await createGpusizer({ wasmBinary: readFileSync(join(root, 'dist/gpusizer.wasm')) });
const list = JSON.parse(core.messages());
const doc = readFileSync(join(root, 'docs/errors.md'), 'utf8');

test('the core lists its messages, one entry per code, of every kind', () => {
  assert.ok(Array.isArray(list) && list.length >= 150, `${list.length} entries`);
  assert.equal(new Set(list.map((m) => m.code)).size, list.length);
  const kinds = new Set(list.map((m) => m.kind));
  assert.deepEqual([...kinds].sort(), ['blocker', 'error', 'format', 'note', 'reason', 'warning']);
  for (const m of list) assert.ok(Array.isArray(m.fields) && typeof m.en === 'string' && m.en, m.code);
});

test('every code of the core has its Chinese wording in web/i18n.js', () => {
  const missing = list.filter((m) => !wordingKeys(m.kind, m.code).every(hasZh));
  assert.deepEqual(missing.map((m) => `${m.kind} ${m.code}`), []);
});

test('web/i18n.js words no code the core does not have', () => {
  const codes = new Set(list.map((m) => `${m.kind} ${m.code}`));
  assert.deepEqual(wordedCodes().filter((c) => !codes.has(c)), []);
});

test('every code of the core is in docs/errors.md', () => {
  assert.deepEqual(list.filter((m) => !doc.includes(`\`${m.code}\``)).map((m) => m.code), []);
});

// The English page shows the core's own message for an error code without the page's English
// wording: that text must suit a page reader, with no pointer to a CLI command (`gpusizer gpus`).
test('an error the page leaves to the core\'s English has no CLI pointer in it', () => {
  const left = list.filter((m) => m.kind === 'error' && !hasEn(`e.${m.code}`));
  assert.ok(left.length >= 20, `${left.length} codes`);
  assert.deepEqual(left.filter((m) => /`|gpusizer /.test(m.en)).map((m) => m.code), []);
});
