// The checkpoint and engine version a user names, refused on the page as in the CLI: an engine
// version the core has not checked, weights the named checkpoint does not store, a Hub id whose
// A link carrying one is refused as a whole with a notice that names the field by its label and
// says why, and the page shows its defaults (the values typed later are refused at their field).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, ready, serveDist, watch } from './chromium.mjs';

let browser;
let server;
before(async () => { [browser, server] = await Promise.all([launch(), serveDist()]); });
after(() => Promise.all([browser.close(), server.close()]));

async function open(hash = '') {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  const problems = watch(page, (url) => url.startsWith(server.base) || url.startsWith('data:') || url.startsWith('blob:'));
  await page.goto(`${server.base}index.html${hash}`);
  await ready(page);
  return { page, problems, close: () => context.close() };
}

async function linkNotice(page) {
  const notice = page.getByText(/^The link could not be read/);
  await notice.waitFor();
  return notice.innerText();
}

test('an engine version the core has not checked is refused at engine_version, with the versions', async () => {
  const { page, problems, close } = await open('#model=llama-3.1-8b&gpu=a100-80gb&engine_version=vllm%209.9');
  assert.match(await linkNotice(page), /Engine version .*: is not a version of vLLM gpusizer has checked: 0\.6\.3, 0\.6\.5, 0\.11/);
  assert.deepEqual(problems, []);
  await close();
});

test('weights the named checkpoint does not store are refused at weights, naming the one that does', async () => {
  const { page, problems, close } = await open('#model=Qwen%2FQwen2.5-72B-Instruct&weights=awq-int4');
  assert.match(await linkNotice(page),
    /Weight precision: Qwen\/Qwen2\.5-72B-Instruct stores bf16 weights: .*Qwen\/Qwen2\.5-72B-Instruct-AWQ is published in awq-int4/);
  assert.deepEqual(problems, []);
  await close();
});
