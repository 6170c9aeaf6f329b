// The hosted page, dist/index.html over http from scripts/serve.mjs with the strict CSP: it loads
// only its own files, speaks the reader's language and remembers the choice, and its embed page
// works inside a sandboxed iframe.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CSP } from '../../scripts/serve.mjs';
import { launch, ready, serveDist, watch } from './chromium.mjs';

// The stylesheet is inline in index.html (scripts/build-page.mjs withStyle): no file of its own.
const OWN_FILES = ['index.html', 'app.js', 'gpusizer.mjs', 'gpusizer-wasm.js'];
let browser;
let server;
before(async () => { [browser, server] = await Promise.all([launch(), serveDist()]); });
after(() => Promise.all([browser.close(), server.close()]));

async function open(path, options = {}) {
  const context = await browser.newContext({ locale: 'en-US', ...options });
  const page = await context.newPage();
  const own = new Set([...OWN_FILES, 'embed.html', 'embed.js'].map((f) => server.base + f));
  const problems = watch(page, (url) => own.has(url.split('#')[0]) || url.startsWith('data:'));
  const response = await page.goto(server.base + path);
  await ready(page);
  return { context, page, problems, response };
}

test('under the CSP it loads only its own files, logs no error and shows the numbers', async () => {
  const { context, page, problems, response } = await open('index.html#seq_len=8192&batch=4');
  // The served policy, plus the hashes of the page's inline language picker and stylesheet (scripts/serve.mjs).
  assert.equal(response.headers()['content-security-policy'].replace(/ 'sha256-[^']+'/g, ''), CSP);
  const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name.split('/').pop()));
  assert.deepEqual(loaded.filter((f) => !f.startsWith('data:')).sort(), OWN_FILES.filter((f) => f !== 'index.html').sort());
  assert.equal(await page.locator('[data-part="kv_cache"] .value').textContent(), '4.00 GiB');
  assert.match(await page.locator('#verdict').textContent(), /Fits on NVIDIA A100 SXM4 80GB/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a zh-CN browser gets Chinese; the language toggle is remembered', async () => {
  const { context, page, problems } = await open('index.html', { locale: 'zh-CN' });
  assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');
  assert.equal(await page.locator('#memory-h').textContent(), '每卡显存');
  assert.equal(await page.getByRole('tab', { selected: true }).textContent(), '推理部署');
  assert.match(await page.locator('.facts.hint').textContent(), /80\.3亿 参数/);
  await page.click('#lang');
  assert.equal(await page.locator('#memory-h').textContent(), 'Memory per GPU');
  await page.reload();
  await ready(page);
  assert.equal(await page.locator('#memory-h').textContent(), 'Memory per GPU');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the embed page works in <iframe sandbox="allow-scripts"> and posts its height', async () => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  const problems = watch(page, (url) => url.startsWith(server.base) || url === 'about:blank' || url.startsWith('data:'));
  await page.setContent(`<script>window.heights = []; addEventListener('message', (e) => heights.push(e.data));</script>
    <iframe sandbox="allow-scripts" width="600" src="${server.base}embed.html#seq_len=8192&batch=4&gpu=l4"></iframe>`);
  const handle = await page.waitForFunction(() => window.heights.find((m) => m.type === 'gpusizer:height' && m.height > 150));
  const { height } = await handle.jsonValue();
  const frame = page.frames().find((f) => f.url().includes('embed.html'));
  assert.equal(await frame.locator('[data-part="kv_cache"] .value').textContent(), '4.00 GiB');
  assert.match(await frame.locator('#verdict').textContent(), /NVIDIA L4/);
  assert.ok(Math.abs(height - await frame.evaluate(() => document.documentElement.scrollHeight)) <= 1);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the Embed button gives an iframe snippet of the current scenario', async () => {
  const { context, page, problems } = await open('index.html#batch=2');
  await page.getByRole('button', { name: 'Embed' }).click();
  const snippet = await page.locator('dialog textarea').inputValue();
  assert.ok(snippet.startsWith(`<iframe id="gpusizer" src="${server.base}embed.html#batch=2&lang=en"`), snippet);
  assert.match(snippet, /sandbox="allow-scripts/);
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('dialog').isVisible(), false);
  assert.deepEqual(problems, []);
  await context.close();
});
