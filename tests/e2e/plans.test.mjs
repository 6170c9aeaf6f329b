// Expert-grade plans on the page: "what it takes" on every GPU type, what would make a
// scenario fit, the links a plan relies on, and serving at a load; in the offline file.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openOffline } from './chromium.mjs';

let browser;
before(async () => { browser = await launch(); });
after(() => browser.close());

const open = (hash = '', locale = 'en-US') => openOffline(browser, hash, { locale });

test('what it takes: each GPU type shows the fewest GPUs that fit and their layout', async () => {
  const { page, problems, close } = await open('#model=llama-3.1-70b&gpu=a100-80gb&seq_len=8192&batch=4');
  assert.match(await page.locator('#verdict').textContent(), /Does not fit on NVIDIA A100 SXM4 80GB/);
  const h100 = await page.locator('.fits tr[data-gpu="h100-80gb"] td.takes').textContent();
  assert.match(h100, /^[2-4] GPUs \((TP|PP) \d\)/);
  // The capacity column is the usable memory: the card less the 10 % headroom.
  assert.equal(await page.locator('.fits tr[data-gpu="a100-80gb"] td.num').first().textContent(), '71.33 GiB');
  // A layout that does not fit shows no speed as if it ran.
  assert.doesNotMatch(await page.locator('.card:has(#speed-h)').textContent(), /tokens\/s|token\/s/);
  assert.deepEqual(problems, []);
  await close();
});

test('when nothing fits, the page says what would, with its figure', async () => {
  const { page, problems, close } = await open('#task=full&model=llama-3.1-8b&gpu=rtx4090&seq_len=2048');
  const items = page.locator('#remedies li');
  const ids = await items.evaluateAll((els) => els.map((e) => e.dataset.remedy));
  for (const id of ['qlora', 'lora', 'zero3_offload']) assert.ok(ids.includes(id), `remedy ${id} in ${ids}`);
  assert.match(await page.locator('#remedies li[data-remedy="qlora"]').textContent(), /QLoRA.*\d+\.\d\d GiB · fits/);
  assert.deepEqual(problems, []);
  await close();
});

test("the ranking shows each plan's links, and at a load its replicas and cost per million tokens", async () => {
  const { page, problems, close } = await open('#model=qwen2.5-7b&output_tokens=256&seq_len=1280&load.requests_per_s=20&load.tpot_s=0.05');
  const header = await page.locator('table.ranking thead').textContent();
  assert.match(header, /At the load, per 1M tokens/);
  assert.match(header, /Links/);
  assert.match(await page.locator('table.ranking tbody tr').first().textContent(), /\d+ replicas × \d+ concurrent/);
  assert.deepEqual(problems, []);
  await close();
});

test('in Chinese the new views are translated', async () => {
  const { page, problems, close } = await open('#task=full&model=llama-3.1-8b&gpu=rtx4090&seq_len=2048', 'zh-CN');
  assert.match(await page.locator('#remedies .hint').textContent(), /放得下的办法/);
  assert.match(await page.locator('.fits thead').textContent(), /能放下的最少 GPU/);
  assert.deepEqual(problems, []);
  await close();
});

test('serving as concurrency grows: the core\'s curve, the scenario\'s batch marked, in both languages', async () => {
  const { page, problems, close } = await open('#model=llama-3.1-8b&gpu=a100-80gb&seq_len=1024&batch=8');
  const curve = page.locator('details.curve');
  await curve.locator('summary').click();
  const rows = await curve.locator('tbody tr').evaluateAll((els) => els.map((e) => [...e.children].map((c) => c.textContent)));
  assert.ok(rows.length >= 5, `${rows.length} rows`);
  const batches = rows.map((r) => Number(r[0].replace(/,/g, '')));
  assert.deepEqual(batches, [...batches].sort((a, b) => a - b), 'concurrency ascends');
  const rates = rows.map((r) => Number(r[3].replace(/[^0-9]/g, '')));
  assert.ok(rates.at(-1) > rates[0] * 4, `throughput grows with concurrency: ${rates}`);
  assert.match(rows[0][2], /^\d+(\.\d)? ms$/);
  assert.equal(await curve.locator('tr[aria-current="true"] th').textContent(), '8');
  assert.deepEqual(problems, []);
  await close();
  const zh = await open('#model=llama-3.1-8b&gpu=a100-80gb&seq_len=1024&batch=8', 'zh-CN');
  await zh.page.locator('details.curve summary').click();
  assert.match(await zh.page.locator('details.curve').textContent(), /随并发增长.*并发请求数.*每个输出 token 耗时/s);
  assert.deepEqual(zh.problems, []);
  await zh.close();
});
