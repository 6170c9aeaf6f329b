// The page in Chinese, every view: the results, the fit table with what it takes, the
// warnings, the ranking with its plan warnings and tooltips, the lookup table with its tooltips,
// the launch commands and their notes (serving and training), the price book, and the errors.
// Each fails on any sentence left in English: a run of three or more English words in the text a
// reader sees or in a tooltip, outside code (launch commands), ids and proper names (models,
// GPUs). Default currency in Chinese: CNY.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, launch, ready, serveDist, watch } from './chromium.mjs';
import { wasmFromText } from '../../web/wasm-bytes.js';

// The core as the page loads it, in node: its catalog is what the page must offer.
const { default: createGpusizer } = await import(pathToFileURL(join(DIST, 'gpusizer.mjs')).href);
const { default: wasmText } = await import(pathToFileURL(join(DIST, 'gpusizer-wasm.js')).href);
const catalog = JSON.parse((await createGpusizer({ wasmBinary: wasmFromText(wasmText) })).catalog());

let browser;
let server;
before(async () => { [browser, server] = await Promise.all([launch(), serveDist()]); });
after(() => Promise.all([browser.close(), server.close()]));

async function open(hash = '') {
  const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  const problems = watch(page, (url) => url.startsWith(server.base) || url.startsWith('data:') || url.startsWith('blob:'));
  await page.goto(`${server.base}index.html${hash}`);
  await ready(page);
  return { page, problems, close: () => context.close() };
}

// Every text node a reader sees (not inside pre/code/textarea, not hidden) and every tooltip,
// label and placeholder; proper names (models, GPUs, instance types) taken out first.
async function englishSentences(page, scope = 'body') {
  return page.evaluate((scopeSelector) => {
    const names = [];
    const scopeEl = document.querySelector(scopeSelector);
    const texts = [];
    const walker = document.createTreeWalker(scopeEl, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || el.closest('pre, code, textarea, script, style, datalist, .mono')) continue;
      // A control that speaks to English readers (the language switch) says so with its lang.
      if (el.closest('[lang]') !== document.documentElement && el.closest('[lang]')?.lang.startsWith('en')) continue;
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      texts.push(node.textContent);
    }
    for (const el of scopeEl.querySelectorAll('[title], [aria-label], [placeholder]')) {
      if (el.closest('[lang]') !== document.documentElement && el.closest('[lang]')?.lang.startsWith('en')) continue;
      for (const a of ['title', 'aria-label', 'placeholder']) if (el.getAttribute(a)) texts.push(el.getAttribute(a));
    }
    for (const el of scopeEl.querySelectorAll('option')) texts.push(el.label || el.textContent);
    void names;
    return texts;
  }, scope).then((texts) => texts.map(strip).flatMap(runs));
}

// Proper names and units that are English by nature: model and GPU names are caught by the
// letters-only rule below (they carry digits or capitals inside words); these few are not.
const NAMES = [/\bPyTorch FSDP\b/g, /\bMicrosoft Azure\b/g, /\bGoogle Cloud\b/g, /\bLlama\b/g,
  /\bTransformer Math\b/g, /\bHugging Face\b/g, /\bModel Optimizer\b/g];
const strip = (text) => NAMES.reduce((s, re) => s.replace(re, '·'), text);
// An English word: letters only, lower case after the first (so "NVIDIA", "DeepSeek", "H100",
// "vLLM" and ids such as "a100-80gb" break a run), an optional final punctuation mark.
const WORD = /^[A-Za-z][a-z]+['’]?[a-z]*[,.;:!?)]?$/;
function runs(text) {
  const found = [];
  let run = [];
  for (const token of text.split(/[\s(（]+/)) {
    if (WORD.test(token) && !/^\(/.test(token)) {
      run.push(token);
      if (/[,.;:!?)]$/.test(token)) { if (run.length >= 3) found.push(run.join(' ')); run = []; }
    } else {
      if (run.length >= 3) found.push(run.join(' '));
      run = [];
    }
  }
  if (run.length >= 3) found.push(run.join(' '));
  return found.map((r) => `${r}  <<  ${text.slice(0, 140)}`);
}

test('the check itself catches an English sentence and lets Chinese, names and ids pass', () => {
  assert.equal(runs('Fits on none of the GPU types').length, 1);
  assert.equal(runs('在 NVIDIA H100 SXM 80GB 上放得下：需要 15.50 GiB').length, 0);
  assert.equal(runs('vLLM：--gpu-memory-utilization 0.90 在每张 GPU 上留出').length, 0);
  assert.equal(runs('Qwen2.5 7B Instruct · 推理部署 · bf16').length, 0);
});

test('results, fit table, what it takes, warnings and the default launch: all Chinese, prices in CNY', async () => {
  // seq_len beyond the model, a batch beyond vLLM's default, and a card without bf16: three warnings.
  const { page, problems, close } = await open('#model=llama-3.1-8b&seq_len=200000&batch=300&gpu=t4');
  assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');
  assert.equal(await page.locator('h1').count(), 1);
  const codes = await page.locator('.warnings li').evaluateAll((els) => els.map((e) => e.dataset.code));
  assert.ok(codes.includes('context_beyond_model') && codes.includes('batch_beyond_engine') && codes.includes('bf16_unsupported'), codes.join());
  assert.match(await page.locator('.warnings').innerText(), /超过 Llama-3.1-8B 支持的 131,072 个位置/);
  assert.deepEqual(await englishSentences(page), []);
  // The ranking prices in yuan by default in Chinese.
  assert.match(await page.locator('#ranking tbody tr').first().innerText(), /¥/);
  assert.deepEqual(problems, []);
  await close();
});

test('the ranking with plan warnings and tooltips, and a multi-node launch with its notes', async () => {
  const { page, problems, close } = await open('#model=llama-3.1-405b&seq_len=8192&batch=16');
  await page.locator('#ranking .more').click();
  assert.ok(await page.locator('.plan-warn').count() > 0, 'a plan with warnings');
  // Launch the first plan that spans instances.
  await page.locator('#ranking tbody th button').first().click();
  await page.locator('#launch .notes li').first().waitFor();
  assert.deepEqual(await englishSentences(page), []);
  assert.deepEqual(problems, []);
  await close();
});

test('training: the launch notes, ZeRO in the summary line, and the time to first token label', async () => {
  const { page, problems, close } = await open('#task=lora&model=qwen2.5-7b&gpu=rtx4090&training.tokens=100000000');
  assert.match(await page.locator('.summary').innerText(), /ZeRO-/);
  const notes = await page.locator('#launch .notes li').evaluateAll((els) => els.map((e) => e.dataset.code));
  assert.ok(notes.includes('global_batch') && notes.includes('dataset_placeholders'), notes.join());
  assert.deepEqual(await englishSentences(page), []);
  assert.deepEqual(problems, []);
  await close();
});

test('the lookup table (text and tooltips) and the price book', async () => {
  const { page, problems, close } = await open();
  await page.locator('#lookup summary').click();
  await page.locator('.lookup tbody tr').first().waitFor();
  await page.locator('#prices summary').click();
  await page.locator('.price-book tbody tr').first().waitFor();
  assert.ok(await page.locator('.price-book td', { hasText: /^阿里云/ }).count() > 0, 'provider names in Chinese');
  assert.deepEqual(await englishSentences(page), []);
  // Switching the language keeps the table open.
  await page.locator('#lang').click();
  assert.equal(await page.locator('#lookup details').evaluate((d) => d.open), true);
  assert.deepEqual(problems, []);
  await close();
});

test('errors: one message at the input it concerns, in Chinese, results kept and marked stale', async () => {
  const { page, problems, close } = await open('#model=llama-3.1-8b&gpu=a100-80gb');
  const before = await page.locator('#per-gpu').innerText();
  // TP 3 does not divide Llama 3.1 8B's 32 heads.
  const tp = page.locator('.field[data-key="tp"] input');
  await tp.fill('3');
  const message = page.locator('.field[data-key="tp"] .field-error');
  await message.waitFor();
  assert.match(await message.innerText(), /^必须整除注意力头数（32）$/);
  assert.equal(await page.locator('.field-error:visible, .error-box:visible').count(), 1, 'one message');
  assert.equal(await page.locator('#per-gpu').innerText(), before, 'the last result stays');
  assert.ok(await page.locator('#results.stale .stale-note').isVisible());
  assert.doesNotMatch(await page.locator('#results').innerText(), /\b(false|undefined|NaN)\b/);
  assert.deepEqual(await englishSentences(page), []);
  await tp.fill('1');
  await page.locator('#results:not(.stale)').waitFor();
  // A config.json without hidden_size: the field shows as config.json's key, not the core's path.
  await page.locator('input[name="model-mode"][value="config"]').check();
  await page.locator('textarea').fill(JSON.stringify({ model_type: 'llama', num_hidden_layers: 32, num_attention_heads: 32, vocab_size: 32000, intermediate_size: 11008 }));
  const modelError = page.locator('#inputs .field-error:visible').first();
  await modelError.waitFor();
  const text = await modelError.innerText();
  assert.match(text, /^config\.json：hidden_size/, text);
  assert.doesNotMatch(text, /model\.hf_config/);
  assert.deepEqual(await englishSentences(page), []);
  assert.deepEqual(problems, []);
  await close();
});

test('what the page offers is what the core\'s catalog lists', async () => {
  const options = (page, key) => page.locator(`.field[data-key="${key}"] select option`).evaluateAll((els) => els.map((e) => e.value));
  for (const task of catalog.tasks) {
    const { page, problems, close } = await open(`#task=${task}`);
    assert.deepEqual(await page.locator('[role="tab"]').evaluateAll((els) => els.map((e) => e.id.replace('tab-', ''))), catalog.tasks);
    assert.deepEqual(await options(page, 'engine'), catalog.engines[task === 'inference' ? 'inference' : 'training'], task);
    assert.deepEqual(await options(page, 'weights'), catalog.weights, task);
    if (task !== 'inference') {
      assert.deepEqual(await options(page, 'training.optimizer'), catalog.optimizers, task);
      assert.deepEqual(await options(page, 'training.grad_checkpointing'), catalog.checkpointing, task);
      assert.deepEqual((await options(page, 'training.zero')).map(Number), catalog.zero_stages, task);
    }
    assert.deepEqual(await options(page, 'pricing.currency'), catalog.currencies, task);
    assert.deepEqual(problems, []);
    await close();
  }
});
