// The offline file, dist/gpusizer.html, opened from file:// as a saved page would be: it loads
// nothing but itself, reacts to inputs, keeps its state in the link, and names bad input.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openOffline, ready } from './chromium.mjs';

let browser;
before(async () => { browser = await launch(); });
after(() => browser.close());

const open = (hash = '', options = {}) => openOffline(browser, hash, options);
const kv = (page) => page.locator('[data-part="kv_cache"] .value').textContent();

test('opens from file:// with no request beyond itself and no console error', async () => {
  const { page, problems, close } = await open();
  assert.match(await page.locator('#per-gpu').textContent(), /^\d+\.\d\d GiB$/);
  assert.equal(await page.locator('.fits tbody tr').count(), 32);  // one row per GPU of core/data/gpus.json
  assert.deepEqual(problems, []);
  await close();
});

test('the spec example shows 4.00 GiB of KV cache; batch and context change it', async () => {
  const { page, problems, close } = await open();
  await page.fill('input[list]', 'llama-3.1-8b');
  await page.fill('[data-key="seq_len"] input', '8192');
  await page.fill('[data-key="batch"] input', '4');
  assert.equal(await kv(page), '4.00 GiB');
  const total = await page.locator('#per-gpu').textContent();
  await page.fill('[data-key="batch"] input', '8');
  assert.equal(await kv(page), '8.00 GiB');
  assert.notEqual(await page.locator('#per-gpu').textContent(), total);
  await page.fill('[data-key="seq_len"] input', '2048');
  assert.equal(await kv(page), '2.00 GiB');
  await page.selectOption('[data-key="kv_cache"] select', 'fp8');
  assert.equal(await kv(page), '1.00 GiB');
  assert.deepEqual(problems, []);
  await close();
});

test('the share link restores the same scenario and the same numbers', async () => {
  const first = await open();
  await first.page.fill('input[list]', 'qwen2.5-14b');
  await first.page.getByRole('tab', { name: 'Serving' }).click();
  await first.page.fill('[data-key="seq_len"] input', '32768');
  await first.page.fill('[data-key="batch"] input', '3');
  await first.page.selectOption('[data-key="weights"] select', 'awq-int4');
  await first.page.selectOption('[data-key="gpu"] select', 'l40s');
  await ready(first.page);  // the link is written with the last stage of the recompute (web/main.js)
  const link = first.page.url();
  const shown = await first.page.locator('#per-gpu').textContent();
  assert.match(link, /model=qwen2.5-14b/);
  const second = await open(`#${link.split('#')[1]}`);
  assert.equal(await second.page.locator('input[list]').inputValue(), 'qwen2.5-14b');
  assert.equal(await second.page.locator('[data-key="seq_len"] input').inputValue(), '32768');
  assert.equal(await second.page.locator('[data-key="weights"] select').inputValue(), 'awq-int4');
  assert.equal(await second.page.locator('[data-key="gpu"] select').inputValue(), 'l40s');
  assert.equal(await second.page.locator('#per-gpu').textContent(), shown);
  assert.equal(second.page.url(), link);
  await first.close();
  await second.close();
});

test('a malformed link falls back to the defaults with a notice naming the problem', async () => {
  // Fields by the names the reader sees: the input's label, config.json.
  for (const [hash, words] of [['#batch=abc', /Concurrent sequences: expected a number/], ['#colour=blue', /colour: unknown key/],
    ['#model.hf_config=%7Bnope', /config\.json: not valid JSON/], ['#batch=0', /Concurrent sequences: must be/]]) {
    const { page, problems, close } = await open(hash);
    assert.match(await page.locator('#notice').textContent(), words, hash);
    assert.equal(await page.locator('[data-key="batch"] input').inputValue(), '8', hash);  // the serving default
    assert.deepEqual(problems, []);
    await close();
  }
});

test('a malformed config.json shows a message naming the problem; a good one is used', async () => {
  const { page, problems, close } = await open();
  await page.getByText('config.json', { exact: true }).click();
  const error = page.locator('#inputs .field-error:visible').first();
  await page.fill('textarea', '{"model_type": "llama",');
  assert.match(await error.textContent(), /^not valid JSON/);
  await page.fill('textarea', '{"model_type": "llama", "num_hidden_layers": 16}');
  assert.match(await error.textContent(), /^config\.json: hidden_size/);
  await page.fill('textarea', JSON.stringify({ model_type: 'llama', hidden_size: 2048, intermediate_size: 8192,
    num_attention_heads: 32, num_hidden_layers: 16, num_key_value_heads: 8, vocab_size: 128256, tie_word_embeddings: true }));
  assert.equal(await page.locator('#inputs .field-error:visible').count(), 0);
  await ready(page);
  assert.match(page.url(), /model\.hf_config=/);
  assert.deepEqual(problems, []);
  await close();
});
