// The cost ranking: currency and filters (scenario keys, so they travel in the link), the plans of
// rank() as a sortable table, CSV export. Until the core has rank(), its message is shown instead.
import { h, replace } from '../dom.js';
import { FIELDS } from '../fields.js';
import { getLang, gib, hours, int, money, providerName, reason, sourceText, t, warning } from '../i18n.js';
import { download, toCsv } from '../export.js';
import { fieldControl } from './controls.js';
import { errorBox, keep, markStale } from './results.js';

const FIRST_ROWS = 15;  // the rest on request: 130-odd rows would bury the page
const speed = (p) => p.throughput?.decode_tokens_per_s || p.throughput?.train_tokens_per_s;
// A price the core can date ("YYYY-MM-DD" or "YYYY-MM", as planner.cpp parse_day); the rest say "date not shown".
const DATED = /^\d{4}-\d{2}(-\d{2})?$/;
const gpuName = (c, id) => c.gpus.find((g) => g.id === id)?.name.replace(/^NVIDIA /, '') ?? id;

// Columns in reading order, what the ranking is by first; a column no plan fills is left out.
// What a plan's traffic rides on: the GPU link inside the instance, and the network between
// instances when the plan spans them.
function linkText(p) {
  const l = p.links;
  if (!l) return null;
  const inside = l.inside === 'none' ? t('link.none') : l.inside.toUpperCase().replace('NVSWITCH', 'NVSwitch').replace('NVLINK', 'NVLink');
  return l.spans_instances ? `${inside} · ${l.between === 'tcp' ? t('link.tcp') : l.between.toUpperCase()} ${int(l.between_gbps)} Gb/s` : inside;
}

const COLUMNS = [
  { key: 'instance', value: (p) => `${providerName(p.provider_id, p.provider)} ${p.instance}` },
  { key: 'load', num: true, value: (p) => p.load?.cost_per_million_tokens,
    text: (p) => `${money(p.load.cost_per_million_tokens, p.currency)} · ${t('replicas', { n: p.load.replicas, b: p.load.concurrency_per_replica })}` },
  { key: 'cost_per_million_tokens', num: true, value: (p) => p.cost_per_million_tokens,
    text: (p) => money(p.cost_per_million_tokens, p.currency) },
  { key: 'cost', num: true, value: (p) => p.cost, text: (p) => money(p.cost, p.currency) },
  { key: 'hours', num: true, value: (p) => p.hours, text: (p) => hours(p.hours) },
  { key: 'price_per_hour', num: true, value: (p) => p.price_per_hour, text: (p) => money(p.price_per_hour, p.currency) },
  { key: 'gpus', num: true, value: (p) => p.gpus,
    text: (p, c) => `${p.gpus} × ${gpuName(c, p.gpu)}${p.instances > 1 ? ` (${t('nodes', { n: p.instances })})` : ''}` },
  { key: 'per_gpu_bytes', num: true, value: (p) => p.per_gpu_bytes, text: (p) => gib(p.per_gpu_bytes) },
  { key: 'speed', num: true, value: speed, text: (p) => `${int(speed(p))}/s`,
    label: (plans) => t(plans[0].throughput?.train_tokens_per_s ? 'p.train' : 'p.decode') },
  { key: 'parallel', value: (p) => p.tp * p.pp, text: (p) => `${p.tp} · ${p.pp}${p.ep > 1 ? ` · EP ${p.ep}` : ''}${p.dp_attention ? ` · ${t('dpAttention')}` : ''} · ${p.zero}` },
  { key: 'links', value: linkText },
];

// The price's date and source under the instance: in Chinese the date (or that none is stated) and
// the source's short name (its repository and file), the citation's English gloss left to the docs.
function priceSource(p) {
  if (getLang() === 'en') return `${p.price_date ?? ''} · ${p.price_source ?? ''}`;
  const date = p.price_date?.match(/\d{4}-\d{2}(-\d{2})?/)?.[0] ?? t('dateUnknown');
  return `${date} · ${sourceText(p.price_source)}`;
}

export function rankingView(root, { catalog, onChange, onPlan }) {
  let sort = null;  // {key, dir}; null keeps the core's order (cheapest first)
  let showAll = false;
  let controls = [];
  const body = h('div', { class: 'ranking-body' });
  let ranking = null;
  let chosen = null;  // the instance whose launch commands are shown
  let overrides = {};  // pricing.overrides: a price the user set has no catalog date to lack
  let plans = [];  // the plans on show (kept while a later input is in error)
  const count = h('p', { class: 'hint' });
  const toolbar = h('div', { class: 'toolbar' }, count,
    h('button', { type: 'button', onclick: () => exportCsv(plans) }, t('exportCsv')));

  function build(scenario) {
    controls = FIELDS.filter((f) => f.group === 'cost').map((f) => fieldControl(f, { catalog, task: scenario.task, onChange }));
    replace(root, h('h2', { id: 'ranking-h' }, t('sec.ranking')),
      h('div', { class: 'grid controls' }, controls.map((c) => c.el)), body);
  }

  // The table stays from one recompute to the next while its columns, their names, the sort and
  // the number of plans do: each row then takes the plan of its rank and rewrites only the text
  // that changed. Built anew (and the last ones taken out), its 15 rows took 3.4 ms of script a
  // recompute, the most after the core's rank(); in place 1.3 ms (medians of 20 edits in Chromium,
  // this 2-core machine under load).
  let shown = null;  // {key, el, rows}: the table on show

  function header(col, name) {
    const dir = sort?.key === col.key ? sort.dir : null;
    return h('th', { scope: 'col', class: col.num ? 'num' : '', 'aria-sort': dir ? `${dir}ending` : null },
      h('button', { type: 'button', class: 'sort', 'data-col': col.key, onclick: () => setSort(col.key),
        'aria-label': t('sortBy', { col: name }) }, name, dir === 'asc' ? ' ▲' : dir === 'desc' ? ' ▼' : ''));
  }

  // A row's cells, empty; fill() writes a plan into them.
  function newRow(columns, names) {
    const row = { plan: null, head: '', cells: [] };
    row.th = h('th', { scope: 'row' });
    row.tr = h('tr', {}, columns.map((col, i) => {
      if (col.key === 'instance') return row.th;
      const text = document.createTextNode('');
      row.cells.push(text);
      return h('td', { class: col.num ? 'num' : '', 'data-label': names[i] }, text);  // the label: for the cards of a narrow screen (app.css)
    }));
    return row;
  }

  function fill(row, p, columns) {
    row.plan = p;
    attr(row.tr, 'class', p.fits === false ? 'bad' : '');
    attr(row.tr, 'aria-current', p.instance === chosen ? 'true' : null);
    attr(row.tr, 'title', reason(p, gpuName(catalog, p.gpu)));
    // The instance picks the plan for the launch commands; provider, region and the price's date
    // and source go under it, and the user's own instances say so.
    const sub = [p.provider_id === 'custom' && t('customTag'), providerName(p.provider_id, p.provider), p.region].filter(Boolean).join(' · ');
    const undated = p.provider_id !== 'custom' && !(p.instance in overrides) && !DATED.test(p.price_date ?? '');
    const warns = p.warning_details?.length > 0 ? p.warning_details : null;
    const warnText = warns && `⚠ ${warns.map((w) => warning(w)).join(' · ')}`;
    const head = JSON.stringify([p.instance, sub, priceSource(p), undated && p.price_date, warnText, warns?.map((w) => w.code)]);
    if (head !== row.head) {
      row.head = head;
      replace(row.th, h('button', { type: 'button', class: 'link', onclick: () => onPlan(row.plan),
        'aria-label': t('pickPlan', { name: p.instance }) }, p.instance),
      h('span', { class: 'sub', title: priceSource(p) }, sub),
      undated && h('span', { class: 'sub price-undated', title: getLang() === 'en' ? p.price_date ?? '' : null }, t('priceUndated')),
      warns && h('span', { class: 'sub plan-warn', 'data-codes': warns.map((w) => w.code).join(' ') }, warnText));
    }
    let i = 0;
    for (const col of columns) {
      if (col.key === 'instance') continue;
      const text = col.value(p) == null ? '—' : col.text ? col.text(p, catalog) : String(col.value(p));
      const node = row.cells[i++];
      if (node.data !== text) node.data = text;
    }
  }

  function table(plans) {
    const columns = COLUMNS.filter((col) => plans.some((p) => col.value(p) != null));
    const names = columns.map((col) => (col.label ? col.label(plans) : t(`p.${col.key}`)));
    const sorted = sort ? [...plans].sort((a, b) => compare(sort, a, b)) : plans;
    const list = showAll ? sorted : sorted.slice(0, FIRST_ROWS);
    const key = JSON.stringify([columns.map((col) => col.key), names, sort, showAll, plans.length, list.length]);
    if (shown?.key !== key) {
      const more = plans.length > FIRST_ROWS && h('button', { type: 'button', class: 'more',
        onclick: () => { showAll = !showAll; draw(); } }, showAll ? t('showFirst', { n: FIRST_ROWS }) : t('showAll', { n: plans.length }));
      const rows = list.map(() => newRow(columns, names));
      shown = { key, rows, el: h('div', { class: 'scroll' }, h('table', { class: 'data ranking' },
        h('thead', {}, h('tr', {}, columns.map((col, i) => header(col, names[i])))),
        h('tbody', {}, rows.map((row) => row.tr))), more) };
    }
    list.forEach((p, i) => fill(shown.rows[i], p, columns));
    return shown.el;
  }

  function setSort(key) {
    sort = sort?.key !== key ? { key, dir: 'asc' } : sort.dir === 'asc' ? { key, dir: 'desc' } : null;
    draw();
    root.querySelector(`[data-col="${key}"]`)?.focus();  // the header was redrawn: keep keyboard focus
  }

  let drawn = false;  // a ranking is on show (kept, marked stale, while an input is in error)
  function draw() {
    if (ranking.error) {
      // The message stands at its input: the workload's in the inputs column (inputs.js), the
      // cost keys' under this section's controls; a cost key without a control of its own
      // (load as a whole) gets it here. The last ranking stays, marked stale.
      const e = ranking.error;
      const path = e.field.replace(/^\[\d+\]\./, '');
      const here = /^(pricing|filters|load)\b/.test(path) && !controls.some((c) => c.owns(e));
      root.querySelector(':scope .ranking-error')?.remove();
      if (here) body.before(h('div', { class: 'ranking-error' }, errorBox(e)));
      if (drawn) markStale(body, true);
      else replace(body);
      return;
    }
    root.querySelector(':scope .ranking-error')?.remove();
    markStale(body, false);
    drawn = true;
    plans = ranking.plans;
    const text = plans.length ? t('plans', { n: plans.length }) : t('noPlans');
    if (count.textContent !== text) count.textContent = text;
    keep(body, [toolbar, plans.length > 0 && table(plans)]);
  }

  return {
    render(scenario, result, instance) {
      chosen = instance;
      overrides = scenario.pricing?.overrides ?? {};
      if (!controls.length) build(scenario);
      for (const c of controls) c.sync(scenario);
      ranking = result;
      draw();
    },
    // Like the inputs view: a core error about pricing.* or filters.* goes under its control.
    showError(error) {
      for (const c of controls) c.showError(error);
    },
  };
}

// Sets or removes an attribute, leaving one already at that value alone.
function attr(el, name, value) {
  if (value == null) el.removeAttribute(name);
  else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

function compare({ key, dir }, a, b) {
  const col = COLUMNS.find((c) => c.key === key);
  const x = col.value(a);
  const y = col.value(b);
  const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x ?? '').localeCompare(String(y ?? ''));
  return dir === 'asc' ? order : -order;
}

// Every field of every plan as the core gave it (objects such as throughput flattened to
// throughput.decode_tokens_per_s), the spec's plan keys first: the CSV is data, not the view.
const SPEC_KEYS = ['provider', 'instance', 'region', 'gpu', 'gpus_per_instance', 'instances', 'tp', 'pp', 'zero',
  'per_gpu_bytes', 'fits', 'price_per_hour', 'currency', 'hours', 'cost', 'cost_per_million_tokens'];
function exportCsv(plans) {
  const flat = plans.map((p) => Object.fromEntries(Object.entries(p).flatMap(([k, v]) =>
    (v && typeof v === 'object' ? Object.entries(v).map(([k2, v2]) => [`${k}.${k2}`, v2]) : [[k, v]]))));
  const keys = [...new Set([...SPEC_KEYS, ...flat.flatMap(Object.keys)])].filter((k) => flat.some((p) => k in p));
  download('gpusizer-ranking.csv', toCsv([keys, ...flat.map((p) => keys.map((k) => p[k]))]), 'text/csv');
}
