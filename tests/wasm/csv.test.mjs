// The page's CSV export (web/export.js) neutralises every cell a spreadsheet could evaluate, as
// OWASP's CSV-injection guidance lists them, and leaves numbers and plain text as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCsv } from '../../web/export.js';

const one = (v) => toCsv([[v]]).slice(0, -2);

test('cells a spreadsheet would evaluate get a leading quote', () => {
  const cases = ['=1+1', '+1', '-1+2', '@SUM(A1)', '|calc', '＝1+1', '＋1', '－1', '＠SUM(A1)',
    '\t=1', '\r=1', ' =1', '\u3000=1', '=HYPERLINK("http://x","y")'];
  for (const text of cases) {
    const out = one(text);
    const unquoted = out.startsWith('"') ? out.slice(1, -1).replaceAll('""', '"') : out;
    assert.equal(unquoted, `'${text}`, JSON.stringify(text));
  }
  assert.equal(one('\n=1'), `"'\n=1"`);
  assert.equal(one('"=1"'), `"'""=1"""`);
});

test('numbers, negative ones too, and plain text are written as they are', () => {
  assert.equal(one(-1.5), '-1.5');
  assert.equal(one(42), '42');
  assert.equal(one('H100 80GB'), 'H100 80GB');
  assert.equal(one('a,b'), '"a,b"');
  assert.equal(one(null), '');
  assert.equal(toCsv([['a', 1], ['=b', -2]]), "a,1\r\n'=b,-2\r\n");
});
