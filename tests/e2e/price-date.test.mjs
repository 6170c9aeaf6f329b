// The ranking says when a catalog price has no date (web/views/ranking.js): "price undated" under
// the instance, in the page's language; a dated price (YYYY-MM-DD or YYYY-MM) says nothing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, ready, serveDist } from './chromium.mjs';

let browser;
let server;
before(async () => { [browser, server] = await Promise.all([launch(), serveDist()]); });
after(() => Promise.all([browser.close(), server.close()]));

async function allPlans(locale) {
  const context = await browser.newContext({ locale });
  const page = await context.newPage();
  await page.goto(`${server.base}index.html`);
  await ready(page);
  await page.locator('.ranking-body button.more').click();  // every plan, not the first 15
  const row = (instance) => page.locator('.ranking tbody tr', { has: page.locator(`th button:text-is("${instance}")`) }).first();
  return { context, page, row };
}

test('an undated catalog price says "price undated"; a dated one does not', async () => {
  const { context, page, row } = await allPlans('en-US');
  const marks = page.locator('.ranking .price-undated');
  assert.ok(await marks.count() > 0);
  for (const title of await marks.evaluateAll((els) => els.map((e) => e.title))) {
    assert.doesNotMatch(title, /^\d{4}-\d{2}(-\d{2})?$/, title);
  }
  // p3dn.24xlarge: "undated (catalog snapshot)"; p5en.48xlarge: 2026-08-06.
  assert.equal(await row('p3dn.24xlarge').locator('.price-undated').textContent(), 'price undated');
  assert.equal(await row('p5en.48xlarge').locator('.price-undated').count(), 0);
  await context.close();
});

test('in Chinese it reads 价格无日期', async () => {
  const { context, row } = await allPlans('zh-CN');
  assert.equal(await row('p3dn.24xlarge').locator('.price-undated').textContent(), '价格无日期');
  await context.close();
});
