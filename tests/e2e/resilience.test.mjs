// The page against a hostile user: stored values, links, typed prices, price files,
// a 5 MB config.json, a formula as an instance name, messages from other windows. None may blank
// the page, throw, or lose a valid entry; each refused value is named. Also the pages' own CSP.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { DIST, launch, offlineOwn, offlineUrl, ready, serveDist, watch } from './chromium.mjs';

let browser;
let server;
before(async () => { [browser, server] = await Promise.all([launch(), serveDist()]); });
after(() => Promise.all([browser.close(), server.close()]));

// Opens the page with localStorage holding `stored` (gpusizer.<key> = text) before its first load.
async function open(hash = '', stored = {}, base = server.base) {
  const context = await browser.newContext({ locale: 'en-US', acceptDownloads: true });
  const page = await context.newPage();
  const problems = watch(page, (url) => url.startsWith(base) || url.startsWith('data:') || url.startsWith('blob:'));
  if (Object.keys(stored).length) {
    await page.goto(`${base}embed.html`);  // same origin, and it reads no price book
    await ready(page);
    await page.evaluate((entries) => { for (const [k, v] of entries) localStorage.setItem(`gpusizer.${k}`, v); },
      Object.entries(stored));
  }
  await page.goto(`${base}index.html${hash}`);
  await ready(page);
  return { page, problems, close: () => context.close() };
}
const rows = (page) => page.locator('.ranking tbody tr').count();
const summary = (page) => page.locator('#prices summary').textContent();
const storedItem = (page, key) => page.evaluate((k) => localStorage.getItem(`gpusizer.${k}`), key);

test('localStorage prices = "null" and custom = "[null]" leave the page working, and say so', async () => {
  const { page, problems, close } = await open('', { prices: 'null', custom: '[null]' });
  assert.ok(await rows(page) > 0);
  assert.match(await summary(page), /0 edited, 0 of your own, 2 not applied/);
  await page.locator('#prices summary').click();
  const aside = page.locator('.prices .aside');
  assert.match(await aside.textContent(), /not applied: custom_instances\[0\]: must be a JSON object, not null/);
  assert.match(await aside.textContent(), /kept as gpusizer\.prices\.unreadable/);
  assert.equal(await storedItem(page, 'prices.unreadable'), 'null');
  // An edit saves the book: the set-aside entry stays in storage.
  await page.locator('input[data-instance]').first().fill('7');
  assert.deepEqual(JSON.parse(await storedItem(page, 'custom')), [null]);
  assert.deepEqual(problems, []);
  await close();
});

test('stored entries the core refuses are set aside one by one; the valid ones apply', async () => {
  const [a, b, c, d, e] = await (async () => {
    const { page, close } = await open();
    const list = await page.evaluate(() => [...document.querySelectorAll('.ranking tbody th button')].map((x) => x.textContent));
    await close();
    return list;
  })();
  const prices = { [a]: 0, [b]: 2e7, [c]: -1, [d]: 'cheap', [e]: 1000 };
  const custom = [
    { instance: 'gone-gpu', gpu: 'h999', gpus_per_instance: 1, price_per_hour: 1, currency: 'USD' },
    { instance: a, gpu: 'a100-80gb', gpus_per_instance: 1, price_per_hour: 1, currency: 'USD' },
    { provider: 'lab', instance: 'my-box', gpu: 'a100-80gb', gpus_per_instance: 1, price_per_hour: 0.0001, currency: 'USD' }];
  const { page, problems, close } = await open('', { prices: JSON.stringify(prices), custom: JSON.stringify(custom) });
  assert.ok(await rows(page) > 0, 'the ranking is not replaced by one error');
  assert.equal(await page.locator('.ranking tbody th button').first().textContent(), 'my-box');
  assert.match(await summary(page), /1 edited, 1 of your own, 6 not applied/);
  await page.locator('#prices summary').click();
  const text = await page.locator('.prices .aside').textContent();
  for (const why of [`overrides.${a}: must be a number above 0`, `overrides.${b}: must be a number above 0`,
    `overrides.${c}: must be`, `overrides.${d}: must be a number above 0.0 to 10000000.0, not string`,
    'custom_instances[0].gpu: unknown GPU id "h999"', `custom_instances[1].instance: "${a}" is a catalog instance type`]) {
    assert.ok(text.includes(`not applied: ${why}`), `${why} in ${text}`);
  }
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export prices' }).click()]);
  const file = JSON.parse(await readFile(await download.path(), 'utf8'));
  assert.deepEqual(file.overrides, { [e]: 1000 });
  assert.equal(file.not_applied.length, 6);
  // Kept across a reload, and a discarded one goes for good.
  await page.reload();
  await ready(page);
  await page.locator('#prices summary').click();
  await page.locator('.prices .aside li').first().getByRole('button', { name: 'Discard' }).click();
  assert.match(await summary(page), /5 not applied/);
  assert.equal(Object.keys(JSON.parse(await storedItem(page, 'prices'))).length + JSON.parse(await storedItem(page, 'custom')).length, 7);
  assert.deepEqual(problems, []);
  await close();
});

test('a typed price the core would refuse is refused at the field and not saved', async () => {
  const { page, problems, close } = await open();
  const before = await rows(page);
  await page.locator('#prices summary').click();
  const input = page.locator('input[data-instance]').first();
  const id = await input.getAttribute('data-instance');
  const error = page.locator(`[id="${await input.getAttribute('aria-describedby')}"]`);
  for (const text of ['0', '20000000', '-3']) {
    await input.fill(text);
    // The message stands at the price it is about: no field path.
    assert.match(await error.textContent(), /^must be a number above 0/, `${id}: ${text}`);
    assert.equal(await storedItem(page, 'prices'), null, text);
    assert.equal(await rows(page), before);
  }
  await input.fill('2.5');
  assert.equal(await error.isHidden(), true);
  assert.deepEqual(JSON.parse(await storedItem(page, 'prices')), { [id]: 2.5 });
  await page.reload();
  await ready(page);
  assert.equal(await rows(page), before);
  assert.deepEqual(problems, []);
  await close();
});

test('a price file names the overrides for unknown instance types and leaves them out', async () => {
  const { page, problems, close } = await open();
  await page.locator('#prices summary').click();
  const known = await page.locator('input[data-instance]').first().getAttribute('data-instance');
  await page.locator('.prices input[type="file"]').setInputFiles({ name: 'p.json', mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ schema: 1, overrides: { [known]: 3, 'p9.mega': 1 } })) });
  const status = page.locator('.prices .toolbar + [role="status"]');
  await status.filter({ hasText: 'Imported 1 prices' }).waitFor();
  assert.match(await status.textContent(), /not imported \(no such instance type\): overrides\.p9\.mega: no catalog or custom instance type "p9\.mega"/);
  assert.deepEqual(JSON.parse(await storedItem(page, 'prices')), { [known]: 3 });
  assert.deepEqual(problems, []);
  await close();
});

test('links with unknown providers, tiny efficiencies or odd languages fall back with a notice', async () => {
  for (const [hash, expected] of [
    ['#filters.providers=ibm', /Providers: unknown provider “ibm”/],
    ['#task=full&efficiency.mfu=0.00000001', /MFU override \(%\): must be a number from 0\.01 to 1/],
    ['#lang=constructor&batch=2', null],
  ]) {
    const { page, problems, close } = await open(hash);
    assert.ok(await rows(page) > 0, hash);
    if (expected) assert.match(await page.locator('#notice').textContent(), expected);
    assert.deepEqual(problems, [], hash);
    await close();
  }
  const { page, problems, close } = await open('', { lang: '"constructor"' });
  assert.ok(await rows(page) > 0);
  assert.deepEqual(problems, []);
  await close();
});

// The file is made in the page: handing 5 MB through playwright's setInputFiles takes longer than
// the page's own work, which is what is timed.
test('a 5 MB config.json keeps only what the core reads in the link, quickly', async () => {
  const { page, problems, close } = await open();
  const { elapsed, hash } = await page.evaluate(async () => {
    const config = { model_type: 'llama', hidden_size: 4096, num_hidden_layers: 32, num_attention_heads: 32,
      num_key_value_heads: 8, intermediate_size: 14336, vocab_size: 128256, _name_or_path: 'big/config',
      filler: 'x'.repeat(5 * 1024 * 1024) };
    const input = document.querySelector('#inputs input[type="file"]');
    const files = new DataTransfer();
    files.items.add(new File([JSON.stringify(config)], 'config.json', { type: 'application/json' }));
    input.files = files.files;
    const start = performance.now();
    input.dispatchEvent(new Event('change'));
    while (!location.hash.includes('model.hf_config')) await new Promise((ok) => { setTimeout(ok, 5); });
    await new Promise((ok) => { requestAnimationFrame(() => setTimeout(ok)); });  // and painted
    return { elapsed: performance.now() - start, hash: location.hash };
  });
  assert.ok(hash.length < 1000, `hash of ${hash.length} characters`);
  assert.ok(!hash.includes('filler'));
  assert.ok(elapsed < 8000, `${Math.round(elapsed)} ms`);
  assert.match(await page.locator('#results').textContent(), /big\/config/);
  assert.ok((await page.locator('#inputs textarea').inputValue()).length < 1000);
  assert.deepEqual(problems, []);
  await close();
});

test('the ranking CSV writes an instance named as a formula as text', async () => {
  const custom = [{ provider: '@lab', instance: '=HYPERLINK("http://x","y")', gpu: 'a100-80gb', gpus_per_instance: 1,
    price_per_hour: 0.0001, currency: 'USD' }];
  const { page, problems, close } = await open('', { custom: JSON.stringify(custom) });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  const csv = await readFile(await download.path(), 'utf8');
  const line = csv.split('\r\n').find((l) => l.includes('HYPERLINK'));
  assert.ok(line.startsWith(`'@lab,"'=HYPERLINK(""http://x"",""y"")"`), line);
  assert.ok(!/(^|,)[=+@]/.test(line), line);
  assert.deepEqual(problems, []);
  await close();
});

test('messages from other windows change nothing', async () => {
  const { page, problems, close } = await open('#batch=3');
  await page.evaluate(() => {
    for (const data of [null, 'x', { type: 'gpusizer:height', height: -1 }, { scenario: { batch: 0 } }]) postMessage(data, '*');
  });
  await page.waitForTimeout(200);
  assert.match(await page.evaluate(() => location.hash), /batch=3/);
  assert.deepEqual(problems, []);
  await close();
});

// ---- the pages' own Content-Security-Policy ---------------------------------------------------
const policyOf = (html) => /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];

test('each page carries its CSP: wasm-unsafe-eval, no unsafe-eval, no unsafe-inline script', async () => {
  for (const name of ['index.html', 'embed.html', 'gpusizer.html']) {
    const policy = policyOf(await readFile(join(DIST, name), 'utf8'));
    assert.ok(policy, name);
    assert.match(policy, /script-src [^;]*'wasm-unsafe-eval'/, name);
    assert.doesNotMatch(policy, /'unsafe-eval'|'unsafe-inline'/, name);
    assert.match(policy, /default-src 'none'/, name);
  }
});

// Served with no CSP header at all: the meta tag alone must hold (an injected script is refused)
// and the page must work under it.
test('the hosted page enforces its CSP without any server header', async () => {
  const plain = createServer(async (req, res) => {
    const path = join(DIST, new URL(req.url, 'http://x').pathname.replace(/^\/+/, '') || 'index.html');
    try {
      const body = await readFile(path);
      const type = path.endsWith('.html') ? 'text/html' : path.endsWith('.css') ? 'text/css'
        : path.endsWith('.wasm') ? 'application/wasm' : 'text/javascript';
      res.writeHead(200, { 'Content-Type': type });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((ok) => plain.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${plain.address().port}/`;
  try {
    const { page, problems, close } = await open('', {}, base);
    assert.ok(await rows(page) > 0);
    const injected = await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.injected = true';
      document.body.append(s);
      return window.injected ?? false;
    });
    assert.equal(injected, false);
    // The refused script is the one console error expected here.
    assert.ok(problems.every((p) => /Content Security Policy/.test(p)), problems.join('\n'));
    await close();
  } finally {
    await new Promise((ok) => plain.close(ok));
  }
});

test('the offline file runs from file:// under its hash-pinned CSP', async () => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  const problems = watch(page, offlineOwn);
  await page.goto(offlineUrl('#batch=2'));
  await ready(page);
  assert.ok(await rows(page) > 0);
  assert.deepEqual(problems, []);
  await context.close();
});
