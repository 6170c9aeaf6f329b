// The price book: every catalog instance with its price, its date and its source; the user's
// edits are overrides kept in the browser (storage.js), exportable and importable as JSON, and
// sent to the core as pricing.overrides (keyed by instance type, in the instance's currency).
import { h, replace, uid } from '../dom.js';
import { download } from '../export.js';
import { load, persistent, save } from '../storage.js';
import { t } from '../i18n.js';

export function pricesView(root, { catalog, onPrices }) {
  let overrides = load('prices', {});
  const rows = [];
  const summary = h('summary', {});
  const status = h('p', { class: 'hint', role: 'status' });
  const body = h('div', {});
  const details = h('details', { class: 'card prices', ontoggle: () => details.open && fill() },
    summary, body);

  const edited = () => Object.keys(overrides).length;
  const label = () => { summary.textContent = t('sec.prices', { n: catalog.instances.length, edited: edited() }); };

  function commit(next) {
    overrides = next;
    save('prices', overrides);
    for (const row of rows) row.sync();
    label();
    onPrices(overrides);
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
      onchange: () => importFile(file.files[0]) });
    body.append(
      h('p', { class: 'hint' }, t('pricesHint')),
      !persistent() && h('p', { class: 'notice' }, t('notKept')),
      h('div', { class: 'toolbar' }, filter,
        h('button', { type: 'button', onclick: () => download('gpusizer-prices.json', `${JSON.stringify({ prices: overrides }, null, 2)}\n`, 'application/json') }, t('exportPrices')),
        h('label', { for: file.id, class: 'button' }, t('importPrices')), file),
      status,
      h('div', { class: 'scroll' }, h('table', { class: 'data price-book' },
        h('thead', {}, h('tr', {}, ['p.provider', 'p.instance', 'p.region', 'p.gpus', 'p.price', 'reset', 'p.date', 'p.source']
          .map((k) => h('th', { scope: 'col' }, t(k))))),
        h('tbody', {}, rows.map((r) => r.tr)))));
  }

  async function importFile(file) {
    try {
      const { prices } = JSON.parse(await file.text());
      if (typeof prices !== 'object' || Object.values(prices).some((v) => typeof v !== 'number' || v < 0)) {
        throw new Error('expected {"prices": {"instance": price, ...}}');
      }
      status.textContent = '';
      commit({ ...overrides, ...prices });
    } catch (error) {
      status.textContent = t('importFailed', { msg: error.message });
    }
  }

  label();
  replace(root, details);
  return { overrides: () => overrides };
}
