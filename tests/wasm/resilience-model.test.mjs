// Property tests of the page model, with the shipped core: random links, stored price
// books and price files through the page's own code (web/state.js, web/intake.js, web/book.js).
// Whatever they hold, the page gets a scenario the core accepts, nothing throws, every valid
// entry of the user's is applied, and no stored entry is lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { fromHash, setStartingPoints } from '../../web/state.js';
import { FIELDS } from '../../web/fields.js';
import { intake, checkBook } from '../../web/intake.js';
import { exportForm, readBook, readImport, storedForm } from '../../web/book.js';

const dist = join(dirname(fileURLToPath(import.meta.url)), '../../dist');
const { default: createGpusizer } = await import(pathToFileURL(join(dist, 'gpusizer.mjs')).href);
const module = await createGpusizer({ wasmBinary: new Uint8Array(await readFile(join(dist, 'gpusizer.wasm'))) });
// The same shape as web/facade.js gives the page.
const call = (command, input) => JSON.parse(module[command](JSON.stringify(input)));
const core = {
  estimate: (s) => call('estimate', s),
  configKeys: (c) => call('config_keys', c),
};
const catalog = JSON.parse(module.catalog());
setStartingPoints(catalog.starting_points);  // as the page does once the core is loaded
const check = (pricing) => checkBook(core, pricing);
const RUNS = Number(process.env.FC_RUNS ?? 150);

// ---- links ----------------------------------------------------------------------------------
const anyJson = fc.jsonValue({ maxDepth: 3 });
const keyArb = fc.oneof(
  fc.constantFrom(...FIELDS.map((f) => f.key), 'task', 'lang', 'model', 'model.params', 'model.hf_config'),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'filters', 'training', 'pricing.overrides', 'x.y.z'),
  fc.string({ maxLength: 12 }));
const valueArb = fc.oneof(
  fc.constantFrom('', '0', '-1', '1e400', 'NaN', 'true', 'null', 'ibm', 'huawei', 'custom', 'aws,ibm', 'a100-80gb',
    'h999', 'zh', 'constructor', '__proto__', '1e-300', '5e-324', '0.5', '1000001', 'inference', 'full'),
  fc.integer({ min: -10, max: 2_000_000 }).map(String),
  fc.double({ noNaN: false }).map(String),
  fc.string({ maxLength: 20 }),
  anyJson.map((v) => JSON.stringify(v)));
const hashArb = fc.oneof(
  fc.array(fc.tuple(keyArb, valueArb), { maxLength: 6 }).map((pairs) => `#${new URLSearchParams(pairs)}`),
  fc.string({ maxLength: 60 }).map((s) => `#${s}`),
  fc.string({ maxLength: 60 }));

test('any link gives a scenario the core accepts, and nothing throws', () => {
  fc.assert(fc.property(hashArb, (hash) => {
    const link = fromHash(hash);
    const { scenario, problem } = intake(core, link.scenario, link.problem);
    const answer = core.estimate(scenario);
    assert.equal(answer.error, undefined, `${hash} -> ${JSON.stringify(scenario)}: ${JSON.stringify(answer.error)}`);
    // A link taken as it is, but for the config.json cut to what the core reads; else a notice.
    if (!problem) assert.deepEqual({ ...scenario, model: null }, { ...link.scenario, model: null }, hash);
    else assert.ok(typeof problem.key === 'string' && (problem.reason || problem.detail), hash);
  }), { numRuns: RUNS * 2 });
});

test('a link with an unknown provider falls back with a notice naming the field', () => {
  const link = fromHash('#filters.providers=ibm');
  const { problem } = intake(core, link.scenario, link.problem);
  assert.equal(problem.key, 'filters.providers');
  assert.match(problem.detail, /unknown provider id "ibm"/);
});

test('a large config.json keeps only the keys the core reads', () => {
  const config = { model_type: 'llama', hidden_size: 4096, num_hidden_layers: 32, num_attention_heads: 32,
    num_key_value_heads: 8, intermediate_size: 14336, vocab_size: 128256, junk: 'x'.repeat(5_000_000) };
  const { scenario, problem } = intake(core, { model: { hf_config: config }, gpu: 'a100-80gb' });
  assert.equal(problem, null);
  assert.equal(scenario.model.hf_config.junk, undefined);
  assert.ok(JSON.stringify(scenario).length < 1000);
  assert.deepEqual(core.estimate(scenario).memory, core.estimate({ model: { hf_config: config }, gpu: 'a100-80gb' }).memory);
});

// ---- stored price books ---------------------------------------------------------------------
const ids = catalog.instances.map((i) => i.instance);
const gpus = catalog.gpus.map((g) => g.id);
const goodPrice = fc.double({ min: 1e-4, max: 1e7, noNaN: true, noDefaultInfinity: true });
const badPrice = fc.oneof(fc.constantFrom(0, -1, 1e7 * 1.01, 1e308, null, '2.5', true, [], {}), fc.string({ maxLength: 5 }));
const goodCustom = (name) => fc.record({
  provider: fc.string({ maxLength: 8 }), instance: fc.constant(name), gpu: fc.constantFrom(...gpus),
  gpus_per_instance: fc.integer({ min: 1, max: 64 }), price_per_hour: goodPrice, currency: fc.constantFrom('USD', 'CNY') });
const badCustom = fc.oneof(anyJson,
  fc.record({ instance: fc.constantFrom(...ids), gpu: fc.constant('a100-80gb'), gpus_per_instance: fc.constant(1),
    price_per_hour: fc.constant(1), currency: fc.constant('USD') }),  // a catalog name
  fc.record({ instance: fc.string({ minLength: 1, maxLength: 6 }).map((s) => `bad-${s}`), gpu: fc.constant('h999'),
    gpus_per_instance: fc.constant(1), price_per_hour: fc.constant(1), currency: fc.constant('USD') }));

// A stored book: valid overrides (distinct catalog ids), junk overrides (unknown ids or bad
// prices), valid custom instances (distinct fresh names) and junk ones, shuffled.
const bookArb = fc.record({
  good: fc.dictionary(fc.constantFrom(...ids), goodPrice, { maxKeys: 5 }),
  badPrices: fc.dictionary(fc.constantFrom(...ids), badPrice, { maxKeys: 3 }),
  unknown: fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }).map((s) => `zz-${s}`), goodPrice, { maxKeys: 2 }),
  customs: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }).map((s) => `mine-${s.trim() || 'x'}`), { maxLength: 3 })
    .chain((names) => fc.tuple(...names.map(goodCustom))),
  junk: fc.array(badCustom, { maxLength: 3 }),
  junkFirst: fc.boolean(),
}).map((b) => {
  const badPrices = Object.fromEntries(Object.entries(b.badPrices).filter(([id]) => !(id in b.good)));
  const custom = b.junkFirst ? [...b.junk, ...b.customs] : [...b.customs, ...b.junk];
  return { ...b, badPrices, prices: { ...b.good, ...badPrices, ...b.unknown }, custom };
});
const byKey = (entries) => entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
// What else a hand-edited or foreign store may hold.
const storeArb = fc.oneof(
  { weight: 4, arbitrary: bookArb },
  { weight: 1, arbitrary: fc.record({ prices: anyJson, custom: anyJson }).map((b) => ({ ...b, good: {}, customs: [] })) });

test('any stored book: the valid entries are applied, the rest set aside with a reason, nothing lost', () => {
  fc.assert(fc.property(storeArb, (stored) => {
    const book = readBook(stored.prices, stored.custom, check);
    // The applied book passes the core as a whole, without warnings about pricing.
    const verdict = check({ overrides: book.overrides, custom_instances: book.custom_instances });
    assert.equal(verdict.error, undefined, JSON.stringify(verdict.error));
    assert.deepEqual(verdict.warnings.filter((w) => w.field.startsWith('pricing.')), []);
    // Every valid entry of the user's is applied.
    for (const [id, price] of Object.entries(stored.good)) assert.equal(book.overrides[id], price, id);
    for (const c of stored.customs) assert.ok(book.custom_instances.includes(c), c.instance);
    for (const a of book.aside) assert.match(a.why, /^(overrides\.|custom_instances\[\d+\]).*: \S/);
    // Nothing is lost: what goes back into storage holds every stored entry.
    const kept = storedForm(book);
    if (stored.prices && typeof stored.prices === 'object' && !Array.isArray(stored.prices)) {
      assert.deepEqual(byKey(Object.entries(kept.prices)), byKey(Object.entries(stored.prices)));
    }
    if (Array.isArray(stored.custom)) {
      assert.equal(kept.custom.length, stored.custom.length);
      for (const c of stored.custom) assert.ok(kept.custom.includes(c));
    }
    // And the export names what was not applied.
    assert.equal(exportForm(book).not_applied?.length ?? 0, book.aside.length);
  }), { numRuns: RUNS });
});

test('hostile values: null, [null], 0, > 1e7, negative, a string, an unknown GPU, a catalog name', () => {
  assert.deepEqual(readBook(null, [null], check), { overrides: {}, custom_instances: [], aside: [
    { kind: 'custom', key: 0, value: null, why: 'custom_instances[0]: must be a JSON object, not null' }] });
  const prices = { [ids[0]]: 0, [ids[1]]: 2e7, [ids[2]]: -1, [ids[3]]: 'cheap', [ids[4]]: 1.5 };
  const custom = [{ instance: 'x', gpu: 'h999', gpus_per_instance: 1, price_per_hour: 1, currency: 'USD' },
    { instance: ids[0], gpu: 'a100-80gb', gpus_per_instance: 1, price_per_hour: 1, currency: 'USD' },
    { instance: 'ok', gpu: 'a100-80gb', gpus_per_instance: 1, price_per_hour: 1, currency: 'USD' }];
  const book = readBook(prices, custom, check);
  assert.deepEqual(book.overrides, { [ids[4]]: 1.5 });
  assert.deepEqual(book.custom_instances.map((c) => c.instance), ['ok']);
  assert.deepEqual(book.aside.map((a) => a.why.split(':')[0]).sort(), [
    'custom_instances[0].gpu', 'custom_instances[1].instance',
    ...[0, 1, 2, 3].map((i) => `overrides.${ids[i]}`)].sort());
});

// ---- price files ----------------------------------------------------------------------------
const fileArb = fc.oneof(
  { weight: 3, arbitrary: bookArb.map((b) => ({ file: { schema: 1, overrides: { ...b.good, ...b.unknown }, custom_instances: b.customs }, b })) },
  { weight: 1, arbitrary: bookArb.map((b) => ({ file: { prices: { ...b.good, ...b.unknown } }, b: { ...b, customs: [] } })) },
  { weight: 1, arbitrary: anyJson.map((file) => ({ file, b: null })) });

test('any price file: refused whole with a reason, or imported with unknown types named and left out', () => {
  fc.assert(fc.property(fileArb, ({ file, b }) => {
    const added = readImport(file, check);
    if (added.error) {
      assert.equal(b, null, `a valid file was refused: ${added.error}`);
      return;
    }
    const verdict = check({ overrides: added.overrides, custom_instances: added.custom_instances });
    assert.equal(verdict.error, undefined);
    assert.deepEqual(verdict.warnings.filter((w) => w.code === 'unknown_override'), []);
    if (b) {
      for (const [id, price] of Object.entries(b.good)) assert.equal(added.overrides[id], price);
      assert.equal(added.skipped.length, Object.keys(b.unknown).length);
      for (const id of Object.keys(b.unknown)) assert.ok(added.skipped.some((x) => x.startsWith(`overrides.${id}: no catalog`)), id);
    }
  }), { numRuns: RUNS });
});
