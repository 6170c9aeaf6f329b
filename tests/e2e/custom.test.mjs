// The user's own instances in the price book: one cheaper than all ranks first, marked
// custom, survives a reload and launches; the price book's export and import round-trip, and a bad
// file names its problem and changes nothing. Also the core's warnings in Chinese.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { launch, ready, serveDist, watch } from './chromium.mjs';

let browser;
let server;
before(async () => { [browser, server] = await Promise.all([launch(), serveDist()]); });
after(() => Promise.all([browser.close(), server.close()]));

async function open(hash, locale = 'en-US') {
  const context = await browser.newContext({ locale, acceptDownloads: true });
  const page = await context.newPage();
  const problems = watch(page, (url) => url.startsWith(server.base) || url.startsWith('data:') || url.startsWith('blob:'));
  await page.goto(`${server.base}index.html${hash}`);
  await ready(page);
  return { page, problems, close: () => context.close() };
}
const firstRow = (page) => page.locator('.ranking tbody tr').first();
// After html.ready: the ranking and the launch commands are the last stage of a recompute.
const firstPlan = async (page) => { await ready(page); return firstRow(page).locator('th button').textContent(); };
const summary = (page) => page.locator('#prices summary').textContent();

// Fills the form with the keyboard's Enter as the submit.
async function addInstance(page, { name, price, gpu = 'a100-80gb' }) {
  const form = page.locator('.custom-form');
  await form.getByLabel('Provider', { exact: true }).fill('My lab');
  await form.getByLabel('Instance', { exact: true }).fill(name);
  await form.getByLabel('GPU', { exact: true }).selectOption(gpu);
  await form.getByLabel('GPUs per instance', { exact: true }).fill('1');
  await form.getByLabel('Currency', { exact: true }).selectOption('USD');
  await form.getByLabel('Price / h', { exact: true }).fill(String(price));
  await form.getByLabel('Price / h', { exact: true }).press('Enter');
}

test('a custom instance cheaper than all ranks first, marked custom, and stays after a reload', async () => {
  const { page, problems, close } = await open('#seq_len=8192&batch=4');
  await page.locator('#prices summary').click();
  await addInstance(page, { name: 'my-box', price: 0.01 });
  assert.equal(await firstPlan(page), 'my-box');
  assert.match(await firstRow(page).locator('.sub').textContent(), /^custom · My lab$/);
  assert.match(await summary(page), /0 edited, 1 of your own/);

  await page.reload();
  await ready(page);
  assert.equal(await firstPlan(page), 'my-box');
  await firstRow(page).locator('th button').click();
  await ready(page);
  assert.match(await page.locator('#launch-plan').textContent(), /^For my-box:/);

  // A provider filter keeps them when "Your own instances" is ticked, and drops them otherwise.
  await page.locator('summary', { hasText: /^Providers/ }).click();
  await page.getByRole('checkbox', { name: 'AWS EC2' }).check();
  assert.notEqual(await firstPlan(page), 'my-box');
  await page.getByRole('checkbox', { name: 'Your own instances' }).check();
  assert.equal(await firstPlan(page), 'my-box');
  await page.getByRole('checkbox', { name: 'AWS EC2' }).uncheck();
  await page.getByRole('checkbox', { name: 'Your own instances' }).uncheck();

  await page.locator('#prices summary').click();
  await page.getByRole('button', { name: 'Delete my-box' }).click();
  assert.notEqual(await firstPlan(page), 'my-box');
  assert.match(await summary(page), /0 of your own/);
  assert.deepEqual(problems, []);
  await close();
});

test('the price book exports and imports as JSON; a bad file or entry names the problem', async () => {
  const { page, problems, close } = await open('#seq_len=8192&batch=4');
  await page.locator('#prices summary').click();
  await addInstance(page, { name: 'p4d.24xlarge', price: 1 });
  // The form's own label, not the core's path.
  assert.match(await page.locator('.custom-form [role="status"]').textContent(), /Instance: “p4d\.24xlarge” is a catalog instance type/);
  await addInstance(page, { name: 'my-box', price: 0.01 });
  const edited = page.locator('input[data-instance]').first();
  await edited.fill('123');
  assert.match(await summary(page), /1 edited, 1 of your own/);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export prices' }).click()]);
  const path = await download.path();
  const book = JSON.parse(await readFile(path, 'utf8'));
  assert.equal(book.schema, 1);
  assert.deepEqual(Object.values(book.overrides), [123]);
  assert.deepEqual(book.custom_instances, [{ provider: 'My lab', instance: 'my-box', gpu: 'a100-80gb', gpus_per_instance: 1,
    price_per_hour: 0.01, currency: 'USD' }]);

  await page.getByRole('button', { name: 'Delete my-box' }).click();
  await page.getByRole('button', { name: `Reset the price of ${await edited.getAttribute('data-instance')}` }).first().click();
  assert.match(await summary(page), /0 edited, 0 of your own/);
  const file = page.locator('.prices input[type="file"]');
  await file.setInputFiles(path);
  const status = page.locator('.prices .toolbar + [role="status"]');
  await assert.doesNotReject(status.filter({ hasText: 'Imported 1 prices and 1 instances' }).waitFor());
  assert.match(await summary(page), /1 edited, 1 of your own/);
  assert.equal(await firstPlan(page), 'my-box');
  assert.equal(await edited.inputValue(), '123');

  const bad = async (name, text, expected) => {
    await file.setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
    await status.filter({ hasText: expected }).waitFor();
    assert.match(await summary(page), /1 edited, 1 of your own/);  // nothing changed
  };
  await bad('broken.json', '{"schema": 1,', 'Could not import prices: not valid JSON');
  await bad('other.json', '{"rows": []}', 'expected {"schema": 1');
  await bad('gpu.json', JSON.stringify({ schema: 1, custom_instances: [{ instance: 'x', gpu: 'h999', gpus_per_instance: 1,
    price_per_hour: 1, currency: 'USD' }] }), 'custom_instances[0].gpu: unknown GPU id "h999"');
  assert.equal(await firstPlan(page), 'my-box');
  assert.deepEqual(problems, []);
  await close();
});

test('a Chinese page shows the core warnings in Chinese, in the results and the launch commands', async () => {
  const { page, problems, close } = await open('#gpu=t4&lang=zh', 'zh-CN');
  assert.match(await page.locator('.warnings li[data-code="bf16_unsupported"]').textContent(), /T4 不支持原生 bf16/);
  assert.match(await page.locator('#launch li[data-code="launch_fp16"]').textContent(), /T4 不支持 bf16：命令改用 float16/);
  // Llama-3.1-8B's bf16 weights alone exceed a T4: vLLM cannot start (not "runs out of memory").
  assert.match(await page.locator('#launch li[data-code="launch_cannot_start"]').textContent(),
    /^仅权重、激活和运行时每卡就需要 \d+\.\d+ GiB，超过 .*T4 可用的 \d+\.\d+ GiB：vLLM 无法在此方案上启动/);
  assert.deepEqual(problems, []);
  await close();
});
