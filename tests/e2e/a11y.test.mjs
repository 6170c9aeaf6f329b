// Accessibility, checked by axe-core (WCAG 2.1 A and AA: labels, names, contrast, ARIA) on the
// offline page in light and dark, English and Chinese, with the folded sections open; and
// keyboard use: the workload tabs follow the arrow keys, and focus is always visible.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { launch, offlineUrl, ready } from './chromium.mjs';

const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let browser;
before(async () => { browser = await launch(); });
after(() => browser.close());

async function open(options) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.goto(offlineUrl('#model=qwen2.5-14b&seq_len=16384&batch=8&gpu=l40s'));
  await ready(page);
  return { page, close: () => context.close() };
}

async function violations(page) {
  await page.evaluate(axeSource);  // evaluated through the debugger protocol: the page's CSP does not apply
  const result = await page.evaluate(() => window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }));
  return result.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

test('axe finds no WCAG 2.1 AA violation: English, light, every section open', async () => {
  const { page, close } = await open({ locale: 'en-US', colorScheme: 'light' });
  await page.locator('details.advanced summary').click();
  await page.locator('#prices summary').click();
  await page.locator('.assumptions summary').click();
  assert.deepEqual(await violations(page), []);
  await close();
});

test('axe finds no WCAG 2.1 AA violation: Chinese, dark, a training tab', async () => {
  const { page, close } = await open({ locale: 'zh-CN', colorScheme: 'dark' });
  await page.locator('#tab-qlora').click();
  await page.locator('details.advanced summary').click();
  assert.deepEqual(await violations(page), []);
  await close();
});

test('the workload tabs follow the arrow keys and every focused control shows a focus ring', async () => {
  const { page, close } = await open({ locale: 'en-US' });
  await page.locator('#tab-inference').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-full');
  assert.equal(await page.locator('#tab-full').getAttribute('aria-selected'), 'true');
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    const tag = await page.evaluate(() => document.activeElement.tagName);
    assert.notEqual(outline, 'none', `focused ${tag} has no visible focus`);
  }
  await close();
});

test('no section widens the page past the window, at 1280 px and at 360 px', async () => {
  for (const width of [1280, 360]) {
    const { page, close } = await open({ locale: 'en-US', viewport: { width, height: 900 } });
    for (const summary of await page.locator('details > summary').all()) await summary.click();
    await page.waitForTimeout(300);  // the lookup table computes after its section opens
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), width, `at ${width} px`);
    assert.equal(await page.locator('#prices .notice, #prices p').filter({ hasText: /^false$/ }).count(), 0);
    await close();
  }
});
