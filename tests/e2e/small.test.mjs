// Small things: the model box follows a new link even after typing in it, the embed
// frame's height follows its content down as well as up, and an embed where nothing fits says
// something useful instead of "0 of 23 fit; smallest: —".
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, ready, serveDist, watch } from './chromium.mjs';

let browser;
let server;
before(async () => { [browser, server] = await Promise.all([launch(), serveDist()]); });
after(() => Promise.all([browser.close(), server.close()]));

async function open(path, locale = 'en-US') {
  const context = await browser.newContext({ locale, viewport: { width: 1000, height: 1200 } });
  const page = await context.newPage();
  const problems = watch(page, (url) => url.startsWith(server.base) || url.startsWith('data:') || url.startsWith('blob:'));
  await page.addInitScript(() => {
    window.heights = [];
    window.addEventListener('message', (e) => { if (e.data?.type === 'gpusizer:height') window.heights.push(e.data.height); });
  });
  await page.goto(`${server.base}${path}`);
  await ready(page);
  return { page, problems, close: () => context.close() };
}

test('the model box shows the model of a new link, even with unfinished typing in it', async () => {
  const { page, problems, close } = await open('index.html#model=llama-3.1-8b');
  const box = page.locator('#inputs input[list]');
  await box.focus();
  await box.pressSequentially('qwen2.5-1');  // unfinished: no preset by that name yet
  await page.evaluate(() => { location.hash = '#model=qwen2.5-7b'; });
  await page.waitForFunction(() => document.querySelector('#inputs input[list]').value === 'qwen2.5-7b');
  await page.evaluate(() => { location.hash = '#model.params=7e9'; });
  await page.waitForFunction(() => document.querySelector('#inputs input[list]').value === '');
  assert.deepEqual(problems, []);
  await close();
});

test('the embed posts its content height, so the frame shrinks as well as grows', async () => {
  const { page, problems, close } = await open('embed.html#model=llama-3.1-8b&gpu=a100-80gb');
  const first = await page.evaluate(() => window.heights.at(-1));
  assert.ok(first > 100 && first < 1200, `posted ${first} in a 1200 px viewport`);
  // A link that fails shows a notice above the card: taller; then back: shorter again.
  await page.evaluate(() => { location.hash = '#model=llama-3.1-8b&gpu=a100-80gb&batch=abc'; });
  await page.waitForFunction((h) => window.heights.at(-1) > h, first);
  await page.evaluate(() => { location.hash = '#model=llama-3.1-8b&gpu=a100-80gb'; });
  await page.waitForFunction((h) => window.heights.at(-1) === h, first);
  assert.deepEqual(problems, []);
  await close();
});

test('an embed where no GPU type fits one card says so and where to look', async () => {
  const { page, problems, close } = await open('embed.html#model=deepseek-v3&seq_len=32768&batch=64', 'zh-CN');
  const text = await page.locator('#embed-fits').innerText();
  assert.match(text, /单卡都放不下/);
  assert.doesNotMatch(text, /—/);
  assert.deepEqual(problems, []);
  await close();
});
