// The price book: every catalog instance with its price, its date and its source, and the user's
// own instances (custom.js). The edits are overrides kept in the browser (storage.js) with the
// custom instances, exportable and importable together as JSON
// {"schema": 1, "overrides": {...}, "custom_instances": [...]}, and sent to the core as
// pricing.overrides (keyed by instance type, in the instance's currency) and
// pricing.custom_instances.
import { h, replace, uid } from '../dom.js';
import { download } from '../export.js';
import { load, persistent, save } from '../storage.js';
import { t } from '../i18n.js';
import { customSection } from './custom.js';

// checkPrices(pricing) returns the core's error {field, message} for a pricing object, or null.
export function pricesView(root, { catalog, onPrices, checkPrices }) {
  let overrides = load('prices', {});
  const stored = load('custom', []);
  let custom = Array.isArray(stored) ? stored : [];  // a hand-edited store may hold anything
  const rows = [];
  const summary = h('summary', {});
  const status = h('p', { class: 'hint', role: 'status' });
  const body = h('div', {});
  const details = h('details', { class: 'card prices', ontoggle: () => details.open && fill() },
    summary, body);

  const edited = () => Object.keys(overrides).length;
  const label = () => {
    summary.textContent = t('sec.prices', { n: catalog.instances.length, edited: edited(), custom: custom.length });
  };
  const customs = customSection(catalog, {
    onAdd: (instance) => {
      const error = problem({ custom_instances: [...custom, instance] });
      if (error) return t('addFailed', { msg: error });
      commit(overrides, [...custom, instance]);
      return null;
    },
    onDelete: (instance) => commit(overrides, custom.filter((c) => c !== instance)),
  });

  // The core's check, its field named as in the exported file (custom_instances[2].gpu).
  function problem(pricing) {
    const error = checkPrices(pricing);
    return error && `${error.field.replace(/^pricing\./, '')}: ${error.message}`;
  }

  function commit(next, nextCustom = custom) {
    overrides = next;
    custom = nextCustom;
    save('prices', overrides);
    save('custom', custom);
    for (const row of rows) row.sync();
    customs.draw(custom);
    label();
    onPrices();
  }

  function setPrice(instance, text) {
    const next = { ...overrides };
    const base = catalog.instances.find((i) => i.instance === instance).price_per_hour;
    if (text === '' || Number(text) === base) delete next[instance];
    else if (Number(text) >= 0) next[instance] = Number(text);
    else return;
    commit(next);
  }

  function row(inst) {
    const id = uid('price');
    const input = h('input', { id, type: 'number', min: 0, step: 'any', inputmode: 'decimal', class: 'num',
      'data-instance': inst.instance, 'aria-label': t('priceOf', { name: inst.instance, cur: inst.currency }),
      oninput: () => setPrice(inst.instance, input.value) });
    const reset = h('button', { type: 'button', class: 'small', onclick: () => setPrice(inst.instance, ''),
      'aria-label': t('resetPrice', { name: inst.instance }) }, t('reset'));
    const tr = h('tr', {},
      h('td', {}, inst.provider), h('th', { scope: 'row' }, inst.instance), h('td', {}, inst.region),
      h('td', {}, `${inst.gpus_per_instance} × ${catalog.gpus.find((g) => g.id === inst.gpu)?.name ?? inst.gpu}`),
      h('td', { class: 'num' }, input, ' ', inst.currency), h('td', {}, reset),
      h('td', { class: 'date' }, inst.price_date),
      h('td', { class: 'source', title: inst.source }, inst.source));
    return {
      tr,
      text: `${inst.provider} ${inst.instance} ${inst.region} ${inst.gpu}`.toLowerCase(),
      sync() {
        const price = overrides[inst.instance] ?? inst.price_per_hour;
        if (document.activeElement !== input) input.value = String(price);
        tr.classList.toggle('edited', inst.instance in overrides);
        reset.hidden = !(inst.instance in overrides);
      },
    };
  }

  // The 130-odd rows are built on first opening: the first render stays fast.
  function fill() {
    if (rows.length) return;
    rows.push(...catalog.instances.map(row));
    rows.forEach((r) => r.sync());
    const filter = h('input', { type: 'search', id: uid('filter'), 'aria-label': t('filterPrices'), placeholder: t('filterPrices'),
      oninput: () => rows.forEach((r) => { r.tr.hidden = !r.text.includes(filter.value.toLowerCase()); }) });
    const file = h('input', { type: 'file', accept: '.json,application/json', id: uid('import'), class: 'visually-hidden',
      onchange: () => { importFile(file.files[0]); file.value = ''; } });
    body.append(
      h('p', { class: 'hint' }, t('pricesHint')),
      ...(persistent() ? [] : [h('p', { class: 'notice' }, t('notKept'))]),  // native append would print `false`
      h('div', { class: 'toolbar' }, filter,
        h('button', { type: 'button', onclick: () => download('gpusizer-prices.json',
          `${JSON.stringify({ schema: 1, overrides, custom_instances: custom }, null, 2)}\n`, 'application/json') }, t('exportPrices')),
        h('label', { for: file.id, class: 'button' }, t('importPrices')), file),
      status,
      customs.el,
      h('div', { class: 'scroll' }, h('table', { class: 'data price-book' },
        h('thead', {}, h('tr', {}, ['p.provider', 'p.instance', 'p.region', 'p.gpus', 'p.price', 'reset', 'p.date', 'p.source']
          .map((k) => h('th', { scope: 'col' }, t(k))))),
        h('tbody', {}, rows.map((r) => r.tr)))));
  }

  // The file's prices and instances join the book (an instance of the same name is replaced); a
  // file with any problem changes nothing and the message names the problem.
  async function importFile(file) {
    const fail = (msg) => { status.textContent = t('importFailed', { msg }); };
    let data;
    try {
      data = JSON.parse(await file.text());
    } catch {
      return fail(t('why.json'));
    }
    // {"prices": {...}}: the file of earlier versions, overrides only.
    const book = data?.schema === 1 ? data : data?.prices ? { overrides: data.prices } : null;
    if (!book) return fail(t('importShape'));
    const added = { overrides: book.overrides ?? {}, custom_instances: book.custom_instances ?? [] };
    const error = problem(added);
    if (error) return fail(error);
    const names = new Set(added.custom_instances.map((c) => c.instance));
    commit({ ...overrides, ...added.overrides }, [...custom.filter((c) => !names.has(c.instance)), ...added.custom_instances]);
    status.textContent = t('imported', { p: Object.keys(added.overrides).length, c: added.custom_instances.length });
  }

  label();
  customs.draw(custom);
  replace(root, details);
  return { book: () => ({ overrides, custom_instances: custom }) };
}
