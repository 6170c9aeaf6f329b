// The lookup table of table(): model presets down, workloads across, each cell the cheapest plan
// that fits and its memory per GPU; selecting a cell loads that plan's scenario. A full table
// takes the core a hundred milliseconds or more, so it is folded away, computed on opening, and
// recomputed a moment after the inputs settle rather than on every keystroke.
import { h, replace } from '../dom.js';
import { gib, has, money, t } from '../i18n.js';
import { download, toCsv } from '../export.js';
import { forTask, set } from '../state.js';
import { errorBox } from './results.js';

const SETTLE_MS = 250;
// The keys a column decides (core/src/table.cpp); the rest of the page's scenario is the context.
const COLUMN_KEYS = ['task', 'weights', 'engine', 'gpu', 'gpus', 'tp', 'pp'];

export function lookupView(root, { catalog, onLoad, compute }) {
  const gpuName = (id) => catalog.gpus.find((g) => g.id === id)?.name.replace(/^NVIDIA /, '') ?? id;
  const body = h('div', { class: 'lookup-body' });
  const details = h('details', { ontoggle: () => details.open && draw() },
    h('summary', {}, h('h2', { id: 'table-h' }, t('sec.table'))), body);
  replace(root, details);
  let context = null;
  let timer = 0;

  const cellLines = (cell) => {
    if (cell.error) return [t('cellError', { msg: `${cell.error.field}: ${cell.error.message}` })];
    if (!cell.fits) return [t('noneFits')];
    const p = cell.plan;
    return [`${p.gpus} × ${gpuName(p.gpu)}`, gib(cell.per_gpu_bytes), `${money(p.price_per_hour, p.currency)}/h`];
  };
  // The scenario the core priced for a cell: the context, the column's keys, the plan's layout.
  const scenarioOf = (row, col, cell) => {
    let s = { ...structuredClone(context), ...structuredClone(col.scenario), model: row.model };
    if (col.scenario.training) s.training = { ...context.training, ...col.scenario.training };
    const p = cell.plan;
    Object.assign(s, { gpu: p.gpu, gpus: p.gpus, tp: p.tp, pp: p.pp });
    if (s.task !== 'inference') s = set(s, 'training.zero', p.zero);
    return forTask(s);
  };
  const columnLabel = (col) => (has(`wl.${col.id}`) ? t(`wl.${col.id}`) : col.label);

  function draw() {
    clearTimeout(timer);
    const result = compute();
    details.removeAttribute('aria-busy');
    if (result.error) {
      replace(body, result.error.field === 'command'
        ? h('p', { class: 'unavailable' }, t('unavailable', { msg: result.error.message }))
        : errorBox(result.error));
      return;
    }
    const { columns, rows } = result;
    const csv = () => download('gpusizer-table.csv', toCsv([['model', ...columns.map((c) => c.id)],
      ...rows.map((row) => [row.model, ...row.cells.map((c) => cellLines(c).join(' · '))])]), 'text/csv');
    replace(body,
      h('div', { class: 'toolbar' }, h('p', { class: 'hint' }, t('tableHint')),
        h('button', { type: 'button', onclick: csv }, t('exportCsv'))),
      h('div', { class: 'scroll' }, h('table', { class: 'data lookup' },
        h('thead', {}, h('tr', {}, h('td', {}), columns.map((col) => h('th', { scope: 'col' }, columnLabel(col))))),
        h('tbody', {}, rows.map((row) => h('tr', {}, h('th', { scope: 'row' }, row.name),
          row.cells.map((cell, i) => {
            const lines = cellLines(cell).map((line) => h('span', {}, line));
            return h('td', { class: cell.fits ? 'ok' : 'bad', title: cell.reason ?? null }, cell.fits
              ? h('button', { type: 'button', class: 'cell', onclick: () => onLoad(scenarioOf(row, columns[i], cell)) }, lines)
              : lines);
          })))))));
  }

  return {
    // The page's scenario changed: the table follows once the inputs settle, if it is open.
    render(scenario) {
      context = Object.fromEntries(Object.entries(scenario).filter(([key]) => !COLUMN_KEYS.includes(key)));
      clearTimeout(timer);
      if (!details.open) return;
      details.setAttribute('aria-busy', 'true');
      timer = setTimeout(draw, SETTLE_MS);
    },
  };
}
