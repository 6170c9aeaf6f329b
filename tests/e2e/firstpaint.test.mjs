// The first figure at first paint: every page carries the default scenario's memory
// card as static markup (scripts/prerender.mjs), in both languages, shown before any script has
// run; the hosted default page fetches the core only after that paint, a linked page preloads it;
// a link with its own scenario never shows that card as its answer; and on a phone the
// figure and the verdict are above the fold, the capacity label inside the bar, the ranking
// without horizontal scrolling.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, offlineUrl, ready, serveDist, watch } from './chromium.mjs';

let browser;
let server;
before(async () => { browser = await launch(); server = await serveDist(); });
after(async () => { await browser.close(); await server.close(); });

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true };
const FIGURE = /^\d+\.\d\d GiB$/;
// The static figure and verdict that show, in whichever copy is visible.
const shownStatic = (page) => page.evaluate(() => [...document.querySelectorAll('.pre')]
  .filter((el) => el.checkVisibility())
  .map((el) => ({ lang: el.lang, figure: el.querySelector('.big')?.textContent, verdict: el.querySelector('.verdict')?.textContent })));

// The text an element shows: of its children, the visible ones only (both languages are in the HTML).
const visibleText = (page, selector) => page.locator(selector).evaluate((el) => (el.children.length
  ? [...el.children].filter((c) => c.checkVisibility()).map((c) => c.textContent).join('') : el.textContent));

async function open(url, options = {}, { scripts = true, blockApp = false } = {}) {
  const context = await browser.newContext({ locale: 'en-US', javaScriptEnabled: scripts, ...options });
  const page = await context.newPage();
  const problems = watch(page, () => true);
  // The page's module never arriving: what shows is what the HTML (and its inline picker) paints.
  if (blockApp) await page.route(/\/(app|embed)\.js$/, (route) => route.abort());
  await page.goto(url);
  return { page, problems, close: () => context.close() };
}

test('with scripts disabled, the offline, hosted and embed pages show the default memory figure and verdict', async () => {
  for (const url of [offlineUrl(), `${server.base}index.html`, `${server.base}embed.html`]) {
    const { page, close } = await open(url, {}, { scripts: false });
    const shown = await shownStatic(page);
    assert.equal(shown.length, 1, `${url}: exactly one language's copy shows`);
    assert.equal(shown[0].lang, 'en');
    assert.match(shown[0].figure, FIGURE, url);
    assert.match(shown[0].verdict, /fits/i, url);
    assert.ok(await page.locator('.pre-en [data-part="weights"] .value').isVisible(), `${url}: the breakdown shows`);
    if (!url.includes('embed')) {
      // The header's texts are in the HTML too, in both languages (scripts/build-page.mjs).
      assert.equal(await visibleText(page, '.tagline'), 'GPU memory and cloud cost for large language models', url);
      assert.equal(await visibleText(page, '#lang'), '中文', url);
    }
    await close();
  }
});

test('the static figure is the core\'s own answer: the live page shows the same figure and verdict', async () => {
  const { page, problems, close } = await open(offlineUrl());
  await ready(page);
  const live = { figure: await page.locator('#per-gpu').textContent(), verdict: await page.locator('#verdict').textContent() };
  const { page: bare, close: closeBare } = await open(offlineUrl(), {}, { scripts: false });
  const [shown] = await shownStatic(bare);
  assert.deepEqual({ figure: shown.figure, verdict: shown.verdict }, live);
  assert.equal(await page.locator('.pre').count(), 0, 'the live card replaced the static one');
  const marks = await page.evaluate(() => ['gpusizer-first-figure', 'gpusizer-ready'].map((m) => performance.getEntriesByName(m)[0]?.startTime));
  assert.ok(marks[0] > 0 && marks[0] <= marks[1], `first figure ${marks[0]} ms, ready ${marks[1]} ms`);
  assert.deepEqual(problems, []);
  await close();
  await closeBare();
});

test('the inline picker shows the Chinese copy to a zh reader and for lang=zh, before the page script runs', async () => {
  for (const [url, locale] of [[`${server.base}index.html`, 'zh-CN'], [`${server.base}index.html#lang=zh`, 'en-US'], [`${server.base}embed.html`, 'zh-TW']]) {
    const { page, problems, close } = await open(url, { locale }, { blockApp: true });
    const shown = await shownStatic(page);
    assert.equal(shown.length, 1, url);
    assert.equal(shown[0].lang, 'zh-CN', url);
    assert.match(shown[0].verdict, /放得下/, url);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
    if (!url.includes('embed')) {
      assert.equal(await visibleText(page, '.tagline'), '大模型显存与云端成本计算器', url);
      assert.equal(await visibleText(page, '#lang'), 'English', url);
      assert.equal(await visibleText(page, '#status'), '正在加载计算器…', url);
    }
    // Only the blocked module: the inline picker ran under the page's CSP.
    assert.deepEqual(problems.filter((p) => !/app\.js|embed\.js|ERR_FAILED/.test(p)), [], url);
    await close();
  }
});

test('the offline default page unpacks its app and core after its first paint, a linked one at once', async () => {
  for (const [hash, waits] of [['', true], ['#seq_len=8192&batch=4', false]]) {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    // When the loader (scripts/build-page.mjs OFFLINE_LOADER) starts unpacking: its first step
    // decodes the packed block's base64.
    await page.addInitScript(() => {
      const decode = window.atob;
      window.atob = (text) => {
        if (text.length > 100000) window.unpackedAt ??= performance.now();
        return decode(text);
      };
    });
    await page.goto(offlineUrl(hash));
    await ready(page);
    const [fcp, unpacked] = await page.evaluate(() => [performance.getEntriesByName('first-contentful-paint')[0].startTime, window.unpackedAt]);
    assert.ok(unpacked > 0, 'the loader ran');
    if (waits) assert.ok(unpacked > fcp, `unpacking began at ${unpacked} ms, first paint at ${fcp} ms`);
    await context.close();
  }
});

test('localStorage is first read after the first paint, and a stored language still wins over the browser\'s', async () => {
  const { page, problems, close } = await open(offlineUrl(), { locale: 'en-US' }, { scripts: true });
  await ready(page);
  // The reader chose Chinese on an earlier visit; the next visit of the same profile:
  await page.evaluate(() => localStorage.setItem('gpusizer.lang', '"zh"'));
  await page.addInitScript(() => {
    const get = Storage.prototype.getItem;
    window.firstRead = null;
    Storage.prototype.getItem = function read(key) {
      window.firstRead ??= performance.now();
      return get.call(this, key);
    };
  });
  await page.reload();
  await ready(page);
  const [fcp, firstRead] = await page.evaluate(() => [performance.getEntriesByName('first-contentful-paint')[0].startTime, window.firstRead]);
  assert.ok(firstRead > fcp, `first localStorage read at ${firstRead} ms, first paint at ${fcp} ms`);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.match(await page.locator('#verdict').textContent(), /放得下/);
  assert.deepEqual(problems, []);
  await close();
});

test('the hosted default page fetches its app and the core after its first paint; a linked page preloads them while parsing', async () => {
  const timing = (page) => page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0].startTime,
    core: performance.getEntriesByType('resource').filter((e) => /gpusizer(\.mjs|-wasm\.js)$/.test(e.name))
      .map((e) => ({ name: e.name.split('/').pop(), start: e.startTime })),
    preloads: document.querySelectorAll('link[rel="modulepreload"]').length,
    appLoaded: performance.getEntriesByType('resource').find((e) => e.name.endsWith('/app.js')).responseEnd,
    appStart: performance.getEntriesByType('resource').find((e) => e.name.endsWith('/app.js')).startTime,
  }));
  // The default link: its figure is in the HTML, and the app and the core's two files wait for its
  // paint (the inline script starts the app, scripts/prerender.mjs).
  const plain = await open(`${server.base}index.html`);
  await ready(plain.page);
  const first = await timing(plain.page);
  assert.ok(first.appStart > first.fcp, `app.js requested at ${first.appStart} ms, first paint at ${first.fcp} ms`);
  assert.equal(first.core.length, 2, JSON.stringify(first.core));
  for (const file of first.core) assert.ok(file.start > first.fcp, `${file.name} requested at ${file.start} ms, first paint at ${first.fcp} ms`);
  assert.equal(first.preloads, 0);
  assert.deepEqual(plain.problems, []);
  await plain.close();
  // A link with its own scenario waits for the core: the inline script preloads the app and both files.
  const linked = await open(`${server.base}index.html#model=qwen2.5-14b&seq_len=16384&batch=8`);
  await ready(linked.page);
  const second = await timing(linked.page);
  assert.equal(second.preloads, 3);
  assert.ok(second.appStart < second.fcp, `app.js requested at ${second.appStart} ms, first paint at ${second.fcp} ms`);
  // ... requested while the page parses, before the app that imports them has even arrived.
  for (const file of second.core) assert.ok(file.start < second.appLoaded, `${file.name} requested at ${file.start} ms, app.js loaded at ${second.appLoaded} ms`);
  assert.deepEqual(linked.problems, []);
  await linked.close();
});

test('a link with a scenario of its own never shows the default figure as its answer', async () => {
  const hash = '#model=qwen2.5-14b&seq_len=16384&batch=8&gpu=l40s';
  for (const url of [`${server.base}index.html${hash}`, `${server.base}embed.html${hash}`]) {
    // Before the page script: no figure at all.
    const { page, close } = await open(url, {}, { blockApp: true });
    assert.deepEqual(await shownStatic(page), [], url);
    await close();
  }
  // With the script: every figure ever painted is the link's own.
  const { page, problems, close } = await open(offlineUrl(hash));
  await ready(page);
  const { page: plain, close: closePlain } = await open(offlineUrl(), {}, { scripts: false });
  const [defaultFigure] = await shownStatic(plain);
  assert.notEqual(await page.locator('#per-gpu').textContent(), defaultFigure.figure);
  assert.deepEqual(await shownStatic(page), []);
  assert.deepEqual(problems, []);
  await close();
  await closePlain();
});

test('on a 390 x 844 phone the figure and the verdict are above the fold, before and after the core runs', async () => {
  for (const scripts of [false, true]) {
    const { page, close } = await open(offlineUrl(), PHONE, { scripts });
    if (scripts) await ready(page);
    const scope = scripts ? '#results' : '.pre-en';
    for (const part of ['.big', '.verdict']) {
      const box = await page.locator(`${scope} .memory ${part}`).boundingBox();
      assert.ok(box && box.y + box.height <= 844, `${part} ends at ${box && box.y + box.height} px (scripts ${scripts})`);
    }
    await close();
  }
});

test('on a phone the capacity label stays inside the bar and the ranking needs no horizontal scrolling', async () => {
  // A 70B model on one A100: the card ends mid-bar, where a long label would overflow one side.
  for (const [hash, locale] of [['#model=llama-3.1-70b&gpu=a100-80gb&seq_len=8192&batch=4', 'en-US'],
    ['#model=llama-3.1-70b&gpu=a100-80gb&seq_len=8192&batch=4&lang=zh', 'zh-CN'], ['', 'en-US']]) {
    const { page, close } = await open(offlineUrl(hash), PHONE);
    await ready(page);
    const bar = await page.locator('#results .bar').boundingBox();
    const label = await page.locator('#results .cap-label').boundingBox();
    assert.ok(label.x >= bar.x - 0.5 && label.x + label.width <= bar.x + bar.width + 0.5,
      `${hash}: label ${label.x}..${label.x + label.width}, bar ${bar.x}..${bar.x + bar.width}`);
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      ranking: [...document.querySelectorAll('#ranking .scroll')].map((el) => el.scrollWidth - el.clientWidth),
    }));
    assert.ok(widths.page <= 390, `${hash}: the page is ${widths.page} px wide`);
    assert.ok(widths.ranking.length > 0 && widths.ranking.every((d) => d <= 0), `${hash}: ranking overflows by ${widths.ranking}`);
    await close();
  }
});
