// Every warning, launch note and "why it does not fit" reason in the golden answers
// (tests/golden/expected.json: 240 scenarios of every command), worded in Chinese by the page's
// own functions (web/i18n.js): none falls back to the core's English, none leaves a {placeholder}
// unfilled, and none keeps a run of English words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expectedPath, readJson } from '../golden/golden.mjs';

globalThis.document ??= { documentElement: {} };  // i18n.js sets <html lang>; node has no page
const { note, reason, setLang, warning } = await import('../../web/i18n.js');
setLang('zh');

const found = { warning: [], note: [], reason: [] };
function walk(x) {
  if (Array.isArray(x)) return x.forEach(walk);
  if (!x || typeof x !== 'object') return;
  for (const w of x.warning_details ?? []) found.warning.push(w);
  for (const n of x.note_details ?? []) found.note.push(n);
  if (x.reason_code) found.reason.push(x);
  Object.values(x).forEach(walk);
}
walk(readJson(expectedPath).map((e) => e.output));

const english = (text) => /(?:\b[A-Za-z][a-z]+['’]?[a-z]*,?\s+){2}[A-Za-z][a-z]+\b/.test(text.replace(/Hugging Face|--[a-z_-]+|\/[\w./-]+|\b[a-z]+_[a-z_]+\b/g, ' '));

test('the golden answers hold warnings, notes and reasons of many codes', () => {
  const codes = (list, key) => new Set(list.map((x) => x[key]));
  assert.ok(codes(found.warning, 'code').size >= 8, [...codes(found.warning, 'code')].join());
  assert.ok(codes(found.note, 'code').size >= 8, [...codes(found.note, 'code')].join());
  assert.ok(codes(found.reason, 'reason_code').size >= 2, [...codes(found.reason, 'reason_code')].join());
});

for (const [kind, word] of [['warning', warning], ['note', note], ['reason', (x) => reason(x, 'GPU')]]) {
  test(`every ${kind} of the golden answers reads in Chinese`, () => {
    const bad = new Set();
    for (const x of found[kind]) {
      const text = word(x);
      if (!text || text.startsWith('输入有误') || /\{\w+\}/.test(text) || /undefined|NaN|\[object/.test(text) || english(text)) {
        bad.add(`${x.code ?? x.reason_code}: ${text}`);
      }
    }
    assert.deepEqual([...bad].slice(0, 10), []);
  });
}
