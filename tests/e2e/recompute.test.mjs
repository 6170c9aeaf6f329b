// A recompute after an input change keeps the fit table and the ranking's rows
// and rewrites only their text (web/views/results.js fitsTable, web/views/ranking.js): what it
// shows after a series of edits must be what a fresh page shows for the same link, cell for cell.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openOffline, ready } from './chromium.mjs';

let browser;
before(async () => { browser = await launch(); });
after(() => browser.close());

const open = (hash = '', locale = 'en-US') => openOffline(browser, hash, { locale });

// The results, the ranking and the launch commands as markup, less the ids the page numbers.
const shown = (page) => page.evaluate(() => ['#results', '#ranking .ranking-body', '#launch']
  .map((sel) => document.querySelector(sel).outerHTML.replace(/\b(f|model|tbl|file|hub)-\d+/g, 'ID')));

// Waits for the recompute an edit starts (html.ready is taken off at once, put back at its end).
async function edit(page, action) {
  await action();
  await page.waitForFunction(() => document.documentElement.classList.contains('ready')
    && performance.getEntriesByName('gpusizer-updated').length > window.edits);
  await page.evaluate(() => { window.edits = performance.getEntriesByName('gpusizer-updated').length; });
}

for (const locale of ['en-US', 'zh-CN']) {
  test(`after edits the page shows what a fresh page shows for the same link (${locale})`, async () => {
    const { page, problems, close } = await open('#model=llama-3.1-8b&seq_len=8192&batch=4', locale);
    await page.evaluate(() => {
      window.edits = 0;
      window.kept = { fits: document.querySelector('table.fits'), row: document.querySelector('table.ranking tbody tr') };
    });
    const before = await shown(page);
    await edit(page, () => page.fill('[data-key="batch"] input', '64'));
    await edit(page, () => page.fill('[data-key="seq_len"] input', '100000'));
    await edit(page, () => page.selectOption('[data-key="gpu"] select', 'l4'));
    await edit(page, () => page.fill('[data-key="seq_len"] input', '0'));  // an error: the last answer stays, marked stale
    await edit(page, () => page.fill('[data-key="seq_len"] input', '2048'));
    const edited = await shown(page);
    assert.notDeepEqual(edited, before, 'the edits changed what is shown');
    // The fit table and the ranking's rows are the same elements, their text rewritten.
    assert.ok(await page.evaluate(() => document.querySelector('table.fits') === window.kept.fits), 'the fit table was kept');
    assert.ok(await page.evaluate(() => document.querySelector('table.ranking tbody tr') === window.kept.row), 'the ranking rows were kept');
    const link = await page.evaluate(() => location.hash);
    assert.match(link, /batch=64/);
    const fresh = await open(link, locale);
    assert.deepEqual(edited, await shown(fresh.page));
    assert.deepEqual(problems, []);
    assert.deepEqual(fresh.problems, []);
    await fresh.close();
    await close();
  });
}
