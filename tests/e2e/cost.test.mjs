// The planning half of the page on the hosted form: the cost ranking and its CSV, the price book
// (an edited price reorders the ranking and survives a reload), the launch commands of a chosen
// plan, and the lookup table, whose cells load their scenario.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { launch, ready, serveDist, watch } from './chromium.mjs';

let browser;
let server;
before(async () => { [browser, server] = await Promise.all([launch(), serveDist()]); });
after(() => Promise.all([browser.close(), server.close()]));

async function open(hash) {
  const context = await browser.newContext({ locale: 'en-US', acceptDownloads: true });
  const page = await context.newPage();
  const problems = watch(page, (url) => url.startsWith(server.base) || url.startsWith('data:') || url.startsWith('blob:'));
  await page.goto(`${server.base}index.html${hash}`);
  await ready(page);
  return { page, problems, close: () => context.close() };
}
// After html.ready: the ranking and the launch commands are the last stage of a recompute.
const firstPlan = async (page) => { await ready(page); return page.locator('.ranking tbody tr').first().locator('th button').textContent(); };

test('the ranking lists plans cheapest first and exports them as CSV', async () => {
  const { page, problems, close } = await open('#seq_len=8192&batch=4');
  const costs = await page.locator('.ranking tbody tr').evaluateAll((rows) => rows.map((r) => r.children[1].textContent));
  assert.ok(costs.length >= 10, `${costs.length} plans`);
  const dollars = costs.map((c) => Number(c.replace(/[^\d.]/g, '')));
  assert.deepEqual(dollars, [...dollars].sort((a, b) => a - b));
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  const csv = await readFile(await download.path(), 'utf8');
  const [header, ...lines] = csv.trim().split('\r\n');
  assert.match(header, /^provider,instance,region,gpu,gpus_per_instance,instances,tp,pp,zero,per_gpu_bytes,fits,price_per_hour,currency,/);
  assert.match(header, /throughput\.decode_tokens_per_s/);
  assert.equal(lines.length, Number((await page.locator('.ranking-body .hint').first().textContent()).match(/\d+/)[0]));
  assert.deepEqual(problems, []);
  await close();
});

test('an edited price reorders the ranking and survives a reload', async () => {
  const { page, problems, close } = await open('#seq_len=8192&batch=4');
  const cheapest = await firstPlan(page);
  await page.locator('#prices summary').click();
  const price = page.locator(`input[data-instance="${cheapest}"]`).first();
  await price.fill('999');
  assert.notEqual(await firstPlan(page), cheapest);
  await page.reload();
  await ready(page);
  assert.match(await page.locator('#prices summary').textContent(), /1 edited/);
  assert.notEqual(await firstPlan(page), cheapest);
  await page.locator('#prices summary').click();
  assert.equal(await price.inputValue(), '999');
  await page.getByRole('button', { name: `Reset the price of ${cheapest}` }).first().click();
  assert.equal(await firstPlan(page), cheapest);
  assert.deepEqual(problems, []);
  await close();
});

test('choosing a plan gives the launch commands for it, and Copy puts one on the clipboard', async () => {
  const { page, problems, close } = await open('#seq_len=8192&batch=4');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
  const plan = await firstPlan(page);
  await page.locator('.ranking tbody tr').first().locator('th button').click();
  await ready(page);
  assert.match(await page.locator('#launch-plan').textContent(), new RegExp(`^For ${plan}:`));
  const vllm = await page.locator('code[data-tool="vllm"]').textContent();
  assert.match(vllm, /^vllm serve meta-llama\/Llama-3\.1-8B/);
  assert.match(vllm, /--max-model-len 8192/);
  const block = page.locator('.launch-item', { has: page.locator('code[data-tool="vllm"]') });
  await block.getByRole('button', { name: 'Copy' }).click();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), vllm);
  assert.deepEqual(problems, []);
  await close();
});

test('the lookup table computes on opening, and a cell loads its scenario', async () => {
  const { page, problems, close } = await open('');
  await page.locator('#lookup summary').click();
  const cell = page.locator('.lookup tbody tr').nth(2).locator('button.cell').first();
  await cell.waitFor();
  const row = await page.locator('.lookup tbody tr').nth(2).locator('th').textContent();
  await cell.click();
  assert.equal((await page.locator('.summary').textContent()).split(' · ')[0], row);
  await ready(page);  // the link is written with the last stage of the recompute
  assert.match(page.url(), /model=/);
  assert.match(await page.locator('#verdict').textContent(), /^Fits on/);
  assert.deepEqual(problems, []);
  await close();
});
