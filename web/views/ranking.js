// The cost ranking: currency and filters (scenario keys, so they travel in the link), the plans of
// rank() as a sortable table, CSV export. Until the core has rank(), its message is shown instead.
import { h, replace } from '../dom.js';
import { FIELDS } from '../fields.js';
import { getLang, gib, hours, int, money, providerName, reason, sourceText, t, warning } from '../i18n.js';
import { download, toCsv } from '../export.js';
import { fieldControl } from './controls.js';
import { errorBox, markStale } from './results.js';

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
  { key: 'parallel', value: (p) => p.tp * p.pp, text: (p) => `${p.tp} · ${p.pp} · ${p.zero}` },
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

  function build(scenario) {
    controls = FIELDS.filter((f) => f.group === 'cost').map((f) => fieldControl(f, { catalog, task: scenario.task, onChange }));
    replace(root, h('h2', { id: 'ranking-h' }, t('sec.ranking')),
      h('div', { class: 'grid controls' }, controls.map((c) => c.el)), body);
  }

  function table(plans) {
    const columns = COLUMNS.filter((col) => plans.some((p) => col.value(p) != null));
    const sorted = sort ? [...plans].sort((a, b) => compare(sort, a, b)) : plans;
    const rows = showAll ? sorted : sorted.slice(0, FIRST_ROWS);
    const header = (col) => {
      const dir = sort?.key === col.key ? sort.dir : null;
      const name = col.label ? col.label(plans) : t(`p.${col.key}`);
      return h('th', { scope: 'col', class: col.num ? 'num' : '', 'aria-sort': dir ? `${dir}ending` : null },
        h('button', { type: 'button', class: 'sort', 'data-col': col.key, onclick: () => setSort(col.key),
          'aria-label': t('sortBy', { col: name }) }, name, dir === 'asc' ? ' ▲' : dir === 'desc' ? ' ▼' : ''));
    };
    const more = plans.length > FIRST_ROWS && h('button', { type: 'button', class: 'more',
      onclick: () => { showAll = !showAll; draw(); } }, showAll ? t('showFirst', { n: FIRST_ROWS }) : t('showAll', { n: plans.length }));
    return h('div', { class: 'scroll' }, h('table', { class: 'data ranking' },
      h('thead', {}, h('tr', {}, columns.map(header))),
      h('tbody', {}, rows.map((p) => h('tr', { class: p.fits === false ? 'bad' : '', 'aria-current': p.instance === chosen ? 'true' : null,
        title: reason(p, gpuName(catalog, p.gpu)) }, columns.map((col) => {
        const text = col.value(p) == null ? '—' : col.text ? col.text(p, catalog) : String(col.value(p));
        // The instance picks the plan for the launch commands; provider, region and the price's
        // date and source go under it, and the user's own instances say so.
        return col.key === 'instance'
          ? h('th', { scope: 'row' }, h('button', { type: 'button', class: 'link', onclick: () => onPlan(p),
            'aria-label': t('pickPlan', { name: p.instance }) }, p.instance),
          h('span', { class: 'sub', title: priceSource(p) },
            [p.provider_id === 'custom' && t('customTag'), providerName(p.provider_id, p.provider), p.region].filter(Boolean).join(' · ')),
          p.provider_id !== 'custom' && !(p.instance in overrides) && !DATED.test(p.price_date ?? '') &&
            h('span', { class: 'sub price-undated', title: getLang() === 'en' ? p.price_date ?? '' : null }, t('priceUndated')),
          p.warning_details?.length > 0 && h('span', { class: 'sub plan-warn', 'data-codes': p.warning_details.map((w) => w.code).join(' ') },
            `⚠ ${p.warning_details.map((w) => warning(w)).join(' · ')}`))
          : h('td', { class: col.num ? 'num' : '', 'data-label': col.label ? col.label(plans) : t(`p.${col.key}`) }, text);  // the label: for the cards of a narrow screen (app.css)
      }))))), more);
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
    const plans = ranking.plans;
    replace(body,
      h('div', { class: 'toolbar' }, h('p', { class: 'hint' }, plans.length ? t('plans', { n: plans.length }) : t('noPlans')),
        h('button', { type: 'button', onclick: () => exportCsv(plans) }, t('exportCsv'))),
      plans.length > 0 && table(plans));
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
