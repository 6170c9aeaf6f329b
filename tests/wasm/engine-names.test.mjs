// The engines' names and their lists per task are the core's (core/src/scenario/engines.cpp, the
// catalog's `engine_names` and `engines`): the page shows the names the catalog gives, its
// engine_serving / engine_training errors list the catalog's engines, and web/i18n holds no copy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

globalThis.document ??= { documentElement: {} };  // i18n sets <html lang>; node has no page
const here = dirname(fileURLToPath(import.meta.url));
const web = join(here, '../../web');
const dist = join(here, '../../dist');
const { default: createGpusizer } = await import(pathToFileURL(join(dist, 'gpusizer.mjs')).href);
const module = await createGpusizer({ wasmBinary: new Uint8Array(await readFile(join(dist, 'gpusizer.wasm'))) });
const catalog = JSON.parse(module.catalog());
// One copy of i18n, as the page has; the tests below run in order, the second before setEngines.
const i18n = await import(pathToFileURL(join(web, 'i18n.js')).href);

test('the catalog names every engine it lists, and only those', () => {
  const listed = new Set([...catalog.engines.inference, ...catalog.engines.training]);
  assert.ok(listed.size >= 2);
  assert.deepEqual(Object.keys(catalog.engine_names).sort(), [...listed].sort());
  for (const [id, name] of Object.entries(catalog.engine_names)) {
    assert.equal(typeof name, 'string', id);
    assert.equal(name.toLowerCase().replace(/^pytorch /, '').replace(/-lm$/, ''), id.replace(/-lm$/, ''), `${id}: ${name}`);
  }
});

test('before the catalog is handed over, i18n knows no engine names and no lists', () => {
  for (const id of Object.keys(catalog.engine_names)) assert.equal(i18n.engineName(id), id);
  const e = { code: 'engine_serving', field: 'engine', values: { engine: 'vllm' }, message: '' };
  const text = i18n.errorMessage(e);
  for (const id of catalog.engines.training) assert.ok(!text.includes(id), text);
});

test('the page names engines as the catalog does, in both languages', async () => {
  i18n.setEngines(catalog.engines, catalog.engine_names);
  for (const lang of ['en', 'zh']) {
    i18n.setLang(lang);
    for (const [id, name] of Object.entries(catalog.engine_names)) assert.equal(i18n.engineName(id), name);
  }
  i18n.setLang('en');
});

test("the engine errors list the other task's engines from the catalog, by name", async () => {
  i18n.setEngines(catalog.engines, catalog.engine_names);
  for (const [task, engine, others] of [['full', catalog.engines.inference.find((id) => !catalog.engines.training.includes(id)), catalog.engines.training],
    ['inference', catalog.engines.training.find((id) => !catalog.engines.inference.includes(id)), catalog.engines.inference]]) {
    const { error } = JSON.parse(module.estimate(JSON.stringify({ model: 'llama-3.1-8b', task, engine })));
    assert.ok(error?.code === 'engine_serving' || error?.code === 'engine_training', JSON.stringify(error));
    for (const lang of ['en', 'zh']) {
      i18n.setLang(lang);
      const text = i18n.errorMessage(error);
      assert.ok(text.includes(catalog.engine_names[engine]), text);
      for (const id of others) assert.ok(text.includes(catalog.engine_names[id]), `${id} missing: ${text}`);
    }
  }
  i18n.setLang('en');
});

test('web/i18n holds no engine name or engine list of its own', async () => {
  const files = [join(web, 'i18n.js'), ...(await readdir(join(web, 'i18n'))).map((f) => join(web, 'i18n', f))];
  const quoted = (s) => new RegExp(`['"\`]${s.replace(/[.+-]/g, '\\$&')}['"\`]`);
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    for (const [id, name] of Object.entries(catalog.engine_names)) {
      assert.ok(!quoted(name).test(text), `${file} spells ${name}`);
      assert.ok(!quoted(id).test(text), `${file} lists ${id}`);
    }
  }
});
