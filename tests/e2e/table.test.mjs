// The lookup table on the hosted page: each column's workload stands above the table and is
// editable, each cell shows its GPUs, memory per GPU and the measure it was chosen by, and the
// page's own scenario reaches the table only when asked.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, ready, serveDist, watch } from './chromium.mjs';

let browser;
let server;
before(async () => { [browser, server] = await Promise.all([launch(), serveDist()]); });
after(() => Promise.all([browser.close(), server.close()]));

async function openTable(hash = '') {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  const problems = watch(page, (url) => url.startsWith(server.base) || url.startsWith('data:') || url.startsWith('blob:'));
  await page.goto(`${server.base}index.html${hash}`);
  await ready(page);
  await page.locator('#lookup summary').click();
  await page.locator('.lookup tbody tr').first().waitFor();
  return { page, problems, close: () => context.close() };
}

const GIB = 2 ** 30;
const rowOf = (page, name) => page.locator('.lookup tbody tr').filter({ has: page.locator('th', { hasText: new RegExp(`^${name}$`) }) });
// A cell's lines: GPUs, memory per GPU, the measure, and a guide's rule where it falls short.
const cellLines = (page, name, column) => rowOf(page, name).locator(`td[data-column="${column}"] span, td[data-column="${column}"] small`)
  .allTextContents();
const cellText = async (page, name, column) => (await cellLines(page, name, column)).join('\n');
// "12.34 GiB per GPU" in a cell, in bytes.
const perGpu = (text) => Number(/^([\d.,]+) GiB per GPU$/m.exec(text)[1].replace(/,/g, '')) * GIB;

test('a training cell shows plausible memory and the measure it was chosen by', async () => {
  // The page's own scenario is serving 8 x 4,096 tokens without checkpointing: it must not leak in.
  const { page, problems, close } = await openTable('#batch=8&seq_len=4096');
  const lora = await cellText(page, 'Qwen2.5-0.5B', 'lora-bf16');
  assert.match(lora, /^1 × \S/, lora);
  assert.ok(perGpu(lora) < 10 * GIB, lora);
  assert.match(lora, /job /, lora);  // the column's stated job of 10^8 tokens: chosen by its cost
  const serve = await cellText(page, 'Qwen2.5-0.5B', 'serve-bf16');
  assert.match(serve, /\/ 1M output tokens/, serve);
  assert.match(await page.locator('.lookup th[data-column="lora-bf16"]').textContent(), /chosen by cost of the job/);
  assert.match(await page.locator('.lookup th[data-column="serve-bf16"]').textContent(), /chosen by cost per 1M output tokens/);
  // The column's stated defaults stand above the table.
  const fields = page.locator('fieldset[data-column="lora-bf16"]');
  assert.equal(await fields.locator('[data-key="seq_len"]').inputValue(), '2048');
  assert.equal(await fields.locator('[data-key="batch"]').inputValue(), '1');
  assert.equal(await fields.locator('[data-key="training.grad_checkpointing"]').inputValue(), 'full');
  assert.equal(await page.locator('fieldset[data-column="serve-bf16"] [data-key="batch"]').inputValue(), '16');
  // 70B QLoRA: the guide's x/2 GB rule is below the 4-bit weights alone.
  assert.match(await cellText(page, 'Llama-2-70B', 'qlora-nf4'), /x\/2 GB = [\d.]+ GB, less than the weights/);
  assert.deepEqual(problems, []);
  await close();
});

test('editing a column recomputes its cells; the job cost appears with training tokens', async () => {
  const { page, problems, close } = await openTable();
  const before = perGpu(await cellText(page, 'Qwen2.5-7B', 'lora-bf16'));
  const seq = page.locator('fieldset[data-column="lora-bf16"] [data-key="seq_len"]');
  await seq.fill('8192');
  await seq.dispatchEvent('change');
  await page.waitForFunction(() => document.querySelector('fieldset[data-column="lora-bf16"] [data-key="seq_len"]').value === '8192');
  const after = perGpu(await cellText(page, 'Qwen2.5-7B', 'lora-bf16'));
  assert.ok(after > before, `${after} > ${before}`);
  const tokens = page.locator('fieldset[data-column="lora-bf16"] [data-key="training.tokens"]');
  assert.match(await tokens.inputValue(), /^(100000000|1e\+?8)$/);  // the column's stated job
  const job = await cellText(page, 'Qwen2.5-7B', 'lora-bf16');
  await tokens.fill('200000000');
  await tokens.dispatchEvent('change');
  for (let i = 0; i < 100 && (await cellText(page, 'Qwen2.5-7B', 'lora-bf16')) === job; ++i) await page.waitForTimeout(100);
  assert.notEqual(await cellText(page, 'Qwen2.5-7B', 'lora-bf16'), job);  // twice the job, twice its cost
  await page.locator('.lookup th[data-column="lora-bf16"]', { hasText: 'chosen by cost of the job' }).waitFor();
  assert.match(await cellText(page, 'Qwen2.5-7B', 'lora-bf16'), /job /);
  // The QLoRA column kept its defaults.
  assert.equal(await page.locator('fieldset[data-column="qlora-nf4"] [data-key="seq_len"]').inputValue(), '2048');
  await page.getByRole('button', { name: 'Reset column' }).click();
  await page.waitForFunction(() => document.querySelector('fieldset[data-column="lora-bf16"] [data-key="seq_len"]').value === '2048');
  assert.deepEqual(problems, []);
  await close();
});

test("the page's context applies only when asked", async () => {
  const { page, problems, close } = await openTable('#seq_len=16384');
  const seq = () => page.locator('fieldset[data-column="full-zero3"] [data-key="seq_len"]').inputValue();
  assert.equal(await seq(), '2048');
  await page.locator('#tbl-apply-context').check();
  await page.waitForFunction(() => document.querySelector('fieldset[data-column="full-zero3"] [data-key="seq_len"]').value === '16384');
  assert.equal(await page.locator('fieldset[data-column="serve-int4"] [data-key="seq_len"]').inputValue(), '16384');
  assert.deepEqual(problems, []);
  await close();
});
