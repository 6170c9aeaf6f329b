// A Hub id that is no preset (web/hub.js): the hosted page offers to fetch its config.json from
// the Hugging Face Hub or ModelScope, shows both URLs, fetches only on the user's click and
// applies the config; the offline file, which may reach nothing, says to paste it instead.
// No network here: Playwright's route() answers for the two hosts, and only after the page's own
// CSP has let the request out (a host the CSP refuses never reaches the route).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, offlineOwn, offlineUrl, ready, serveDist, watch } from './chromium.mjs';

const ID = 'acme-lab/Lightning-Test-456B';  // no preset matches it
const HF_URL = `https://huggingface.co/${ID}/resolve/main/config.json`;
const MS_URL = `https://modelscope.cn/models/${ID}/resolve/master/config.json`;
// MiniMax-AI/MiniMax-M1 config.json (commit 2abb4f45), the keys the importer reads.
const CONFIG = {
  architectures: ['MiniMaxM1ForCausalLM'], model_type: 'minimax_m1',
  attn_type_list: Array.from({ length: 80 }, (_, i) => (i % 8 === 7 ? 1 : 0)),
  head_dim: 128, hidden_size: 6144, intermediate_size: 9216, max_position_embeddings: 10240000,
  num_attention_heads: 64, num_experts_per_tok: 2, num_hidden_layers: 80, num_key_value_heads: 8,
  num_local_experts: 32, shared_intermediate_size: 0, tie_word_embeddings: false, vocab_size: 200064,
};

let browser;
let server;
before(async () => { [browser, server] = await Promise.all([launch(), serveDist()]); });
after(() => Promise.all([browser.close(), server.close()]));

// Serves CONFIG for `url` (with the CORS header the Hub sends) and records each request.
async function hubRoutes(context, answers) {
  const asked = [];
  for (const [url, body] of Object.entries(answers)) {
    await context.route(url, (route) => {
      asked.push(route.request().url());
      return route.fulfill({ status: body ? 200 : 404, contentType: 'application/json',
        headers: { 'access-control-allow-origin': '*' }, body: body ? JSON.stringify(body) : 'not found' });
    });
  }
  return asked;
}

async function typeId(page, text) {
  await page.fill('input[list]', text);
  await page.locator('input[list]').press('Enter');
}

test('hosted: a Hub id that is no preset shows both URLs, fetches on click and applies the config', async () => {
  const context = await browser.newContext({ locale: 'en-US' });
  const asked = await hubRoutes(context, { [HF_URL]: CONFIG, [MS_URL]: null });
  const page = await context.newPage();
  const problems = watch(page, (url) => url.startsWith(server.base) || url.startsWith('data:') || url === HF_URL || url === MS_URL);
  await page.goto(`${server.base}index.html#seq_len=8192&batch=4`);
  await ready(page);

  await typeId(page, `https://huggingface.co/${ID}/tree/main`);  // a URL works as well as the id
  const hub = page.locator('.hub');
  await hub.waitFor();
  assert.deepEqual(await hub.locator('code').allTextContents(), [HF_URL, MS_URL]);
  assert.match(await hub.textContent(), /is not a preset/);
  assert.deepEqual(asked, []);  // nothing is fetched before the click

  // ModelScope answers 404: said under the buttons, nothing applied.
  await hub.locator('button[data-source="ModelScope"]').click();
  await page.locator('.hub-status', { hasText: 'Could not fetch' }).waitFor();
  assert.match(await page.locator('.hub-status').textContent(), /HTTP 404/);

  await hub.locator('button[data-source="Hugging Face"]').click();
  await page.waitForFunction(() => document.querySelector('textarea')?.value.includes('MiniMaxM1ForCausalLM'));
  assert.deepEqual(asked, [MS_URL, HF_URL]);
  // The config is the model now: the config.json tab is shown, the error is gone and the KV
  // cache is that of the 10 softmax layers (2 x 10 x 8 x 128 x 2 bytes = 40 KiB a token, x 8192
  // x 4) plus the 70 lightning layers' fp32 state (70 x 64 x 128 x 128 x 4 bytes, x 4):
  // 1,342,177,280 + 1,174,405,120 bytes = 2.34 GiB.
  assert.equal(await page.locator('input[name="model-mode"][value="config"]').isChecked(), true);
  assert.equal(await page.locator('.field-error[role="alert"]').first().isHidden(), true);
  assert.equal(await hub.isHidden(), true);
  assert.equal(await page.locator('[data-part="kv_cache"] .value').textContent(), '2.34 GiB');
  await ready(page);  // the link is written with the last stage of the recompute
  assert.match(decodeURIComponent(page.url()), /hf_config/);  // the link carries it
  // The 404 of the ModelScope answer is the one console line expected here.
  assert.deepEqual(problems.filter((p) => !/status of 404/.test(p)), []);
  await context.close();
});

test('hosted: the page CSP lets out exactly the two Hub hosts', async () => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(`${server.base}index.html`);
  await ready(page);
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  assert.match(policy, /connect-src https:\/\/huggingface\.co https:\/\/modelscope\.cn(;|$)/);
  // Any other host is refused by the browser before a request leaves.
  const other = await page.evaluate(() => fetch('https://example.com/config.json').then(() => 'sent', (e) => e.name));
  assert.equal(other, 'TypeError');
  await context.close();
});

test('offline file: a Hub id says to paste config.json, with the URLs and no fetch button', async () => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  const problems = watch(page, offlineOwn);
  await page.goto(offlineUrl());
  await ready(page);
  await typeId(page, ID);
  const hub = page.locator('.hub');
  await hub.waitFor();
  assert.match(await hub.textContent(), /this offline file cannot fetch: download its config\.json .* paste it/);
  assert.deepEqual(await hub.locator('code').allTextContents(), [HF_URL, MS_URL]);
  assert.equal(await hub.locator('button').count(), 0);
  // A preset name hides it again.
  await typeId(page, 'llama-3.1-8b');
  assert.equal(await hub.isHidden(), true);
  assert.deepEqual(problems, []);
  await context.close();
});

test('offline file in Chinese: the paste message is translated', async () => {
  const context = await browser.newContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto(offlineUrl());
  await ready(page);
  await typeId(page, ID);
  await page.locator('.hub').waitFor();
  assert.match(await page.locator('.hub').textContent(), /离线文件无法联网获取/);
  await context.close();
});
