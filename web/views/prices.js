// The price book: every catalog instance with its price, its date and its source, and the user's
// own instances (custom.js). The edits are overrides kept in the browser (storage.js) with the
// custom instances, exportable and importable together as JSON
// {"schema": 1, "overrides": {...}, "custom_instances": [...]}, and sent to the core as
// pricing.overrides (keyed by instance type, in the instance's currency) and
// pricing.custom_instances. What the browser stored is read entry by entry (book.js): an entry
// the core refuses is set aside, listed here as "not applied" with the reason, and kept.
import { h, replace, uid } from '../dom.js';
import { download } from '../export.js';
import { load, persistent, save, setAside } from '../storage.js';
import { errorMessage, getLang, providerName, sourceText, t } from '../i18n.js';
import { exportForm, readBook, readImport, storedForm } from '../book.js';
import { customSection } from './custom.js';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// checkBook(pricing) returns the core's verdict on a pricing object: {error} or {warnings}.
export function pricesView(root, { catalog, onPrices, checkBook }) {
  const book = readBook(load('prices', {}, isObject), load('custom', [], Array.isArray), checkBook);
  let overrides = book.overrides;
  let custom = book.custom_instances;
  let aside = book.aside;
  const rows = [];
  const summary = h('summary', {});
  const status = h('p', { class: 'hint', role: 'status' });
  const asideList = h('div', { class: 'aside' });
  const body = h('div', {});
  const details = h('details', { class: 'card prices', ontoggle: () => details.open && fill() },
    summary, asideList, body);

  const edited = () => Object.keys(overrides).length;
  const unread = () => ['prices', 'custom'].filter(setAside);
  const label = () => {
    const n = aside.length + unread().length;
    summary.textContent = t('sec.prices', { n: catalog.instances.length, edited: edited(), custom: custom.length })
      + (n ? t('notAppliedCount', { n }) : '');
  };
  // The entries set aside, each with the core's reason and a button to drop it; and the stored
  // text that did not read at all (kept under gpusizer.<key>.unreadable by storage.js).
  function drawAside() {
    replace(asideList, (aside.length || unread().length) && h('div', { class: 'notice', role: 'status' },
      h('p', {}, t('notAppliedHint')),
      h('ul', {}, aside.map((a) => h('li', { 'data-entry': a.kind === 'override' ? a.key : `custom-${a.key}` },
        t('notApplied', { why: a.why }), ' ',
        h('button', { type: 'button', class: 'small', onclick: () => drop(a) }, t('discard')))),
      unread().map((key) => h('li', {}, t('unreadable', { key: `gpusizer.${key}.unreadable` }))))));
  }
  function drop(entry) {
    aside = aside.filter((a) => a !== entry);
    commit(overrides);
  }
  const customs = customSection(catalog, {
    onAdd: (instance) => {
      const error = problem({ custom_instances: [...custom, instance] });
      if (error) return t('addFailed', { msg: error });
      commit(overrides, [...custom, instance]);
      return null;
    },
    onDelete: (instance) => commit(overrides, custom.filter((c) => c !== instance)),
  });

  // The core's refusal of a typed price or an added instance, in the page's language: the
  // message alone at a price (it stands at its input), with the form's label for an instance.
  const FORM_LABELS = { instance: 'p.instance', gpu: 'col.gpu', gpus_per_instance: 'p.perInstance', price_per_hour: 'p.price',
    currency: 'f.pricing.currency', provider: 'p.provider', region: 'p.region' };
  function problem(pricing) {
    const { error } = checkBook(pricing);
    if (!error) return null;
    const key = error.field.match(/^pricing\.custom_instances\[\d+\]\.(\w+)$/)?.[1];
    return key && FORM_LABELS[key] ? t('inputError', { field: t(FORM_LABELS[key]), msg: errorMessage(error) }) : errorMessage(error);
  }

  // Storage keeps the applied entries and the ones set aside (book.js storedForm).
  function commit(next, nextCustom = custom) {
    overrides = next;
    custom = nextCustom;
    const stored = storedForm({ overrides, custom_instances: custom, aside });
    save('prices', stored.prices);
    save('custom', stored.custom);
    for (const row of rows) row.sync();
    customs.draw(custom);
    label();
    drawAside();
    onPrices();
  }

  // Returns the reason a typed price is refused (the core's, as for a stored one), or null once
  // it is applied. A price the user types replaces one of the same instance set aside.
  function setPrice(instance, text, badInput = false) {
    const next = { ...overrides };
    const base = catalog.instances.find((i) => i.instance === instance).price_per_hour;
    const price = Number(text);
    if (badInput || (text !== '' && !Number.isFinite(price))) return t('why.number');
    if (text === '' || price === base) {
      delete next[instance];
    } else {
      const error = problem({ overrides: Object.fromEntries([[instance, price]]) });
      if (error) return error;
      next[instance] = price;
    }
    aside = aside.filter((a) => !(a.kind === 'override' && a.key === instance));
    commit(next);
    return null;
  }

  function row(inst) {
    const id = uid('price');
    const error = h('span', { class: 'field-error', id: `${id}-err`, role: 'status', hidden: true });
    const showError = (text) => {
      error.textContent = text ?? '';
      error.hidden = !text;
      input.toggleAttribute('aria-invalid', Boolean(text));
    };
    const input = h('input', { id, type: 'number', min: 0, step: 'any', inputmode: 'decimal', class: 'num',
      'data-instance': inst.instance, 'aria-label': t('priceOf', { name: inst.instance, cur: inst.currency }),
      'aria-describedby': error.id,
      oninput: () => showError(setPrice(inst.instance, input.value, input.validity.badInput)) });
    const reset = h('button', { type: 'button', class: 'small', onclick: () => { showError(null); setPrice(inst.instance, ''); },
      'aria-label': t('resetPrice', { name: inst.instance }) }, t('reset'));
    const tr = h('tr', {},
      h('td', {}, providerName(inst.provider_id, inst.provider)), h('th', { scope: 'row' }, inst.instance), h('td', {}, inst.region),
      h('td', {}, `${inst.gpus_per_instance} × ${catalog.gpus.find((g) => g.id === inst.gpu)?.name ?? inst.gpu}`),
      h('td', { class: 'num' }, input, ' ', inst.currency, error), h('td', {}, reset),
      // A date the source did not state is said so in the page's language (the catalog's words
      // are in docs/catalog.md).
      h('td', { class: 'date' }, getLang() === 'en' ? inst.price_date
        : inst.price_date.match(/\d{4}-\d{2}(-\d{2})?/)?.[0] ?? t('dateUnknown')),
      h('td', { class: 'source', title: sourceText(inst.source) }, sourceText(inst.source)));
    return {
      tr,
      text: `${inst.provider} ${providerName(inst.provider_id, inst.provider)} ${inst.instance} ${inst.region} ${inst.gpu}`.toLowerCase(),
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
          `${JSON.stringify(exportForm({ overrides, custom_instances: custom, aside }), null, 2)}\n`, 'application/json') }, t('exportPrices')),
        h('label', { for: file.id, class: 'button' }, t('importPrices')), file),
      status,
      customs.el,
      h('div', { class: 'scroll' }, h('table', { class: 'data price-book' },
        h('thead', {}, h('tr', {}, ['p.provider', 'p.instance', 'p.region', 'p.gpus', 'p.price', 'reset', 'p.date', 'p.source']
          .map((k) => h('th', { scope: 'col' }, t(k))))),
        h('tbody', {}, rows.map((r) => r.tr)))));
  }

  // The file's prices and instances join the book (an instance of the same name is replaced); a
  // file the core refuses changes nothing and the message names the problem. A price for an
  // instance type that exists nowhere is left out, and the message names it.
  async function importFile(file) {
    const fail = (msg) => { status.textContent = t('importFailed', { msg }); };
    let data;
    try {
      data = JSON.parse(await file.text());
    } catch {
      return fail(t('why.json'));
    }
    // {"prices": {...}}: the file of earlier versions, overrides only.
    const added = readImport(data, checkBook, custom);
    if (added.error) return fail(added.error === 'shape' ? t('importShape') : added.error);
    const names = new Set(added.custom_instances.map((c) => c.instance));
    const replaced = new Set(Object.keys(added.overrides));
    aside = aside.filter((a) => !(a.kind === 'override' && replaced.has(a.key)));
    commit({ ...overrides, ...added.overrides }, [...custom.filter((c) => !names.has(c.instance)), ...added.custom_instances]);
    status.textContent = t('imported', { p: Object.keys(added.overrides).length, c: added.custom_instances.length })
      + (added.skipped.length ? t('importSkipped', { list: added.skipped.join('; ') }) : '');
  }

  label();
  drawAside();
  customs.draw(custom);
  replace(root, details);
  return { book: () => ({ overrides, custom_instances: custom }) };
}
