// The lookup table of table(): model presets down, workloads across. Each column is a complete
// workload whose settings (core/src/plan/table.cpp, table_workloads()) stand above the table, editable;
// each cell is the cheapest plan that fits, with its GPUs, memory per GPU and the measure it was
// chosen by, and the arithmetic of its weights. The page's own scenario reaches the table only
// through the "apply my scenario's context" box (off by default); its prices, currency, filters
// and headroom always do. Selecting a cell loads that plan's scenario. A full table takes the
// core tens of milliseconds, so it is folded away, computed on opening, and recomputed a moment
// after the inputs settle rather than on every keystroke.
import { h, replace, uid } from '../dom.js';
import { errorText, fixed, getLang, gib, has, int, money, reason, t } from '../i18n.js';
import { download, toCsv } from '../export.js';
import { forTask, set } from '../state.js';
import { field as fieldOf } from '../fields.js';
import { optionLabel } from './controls.js';
import { errorBox } from './results.js';

const SETTLE_MS = 250;
const GB = 1e9;

// What the user changed in the table, kept across re-renders and language switches, and whether
// the table is open (a language switch rebuilds the views: it must not fold the table away).
const edits = { columns: {}, applyContext: false, open: false };

// The settings a column shows: the keys the core lets a column set (catalog.table_settings), less
// the ones that are the column's identity (its task's format and engine) and the rare ones the
// inputs column has under "advanced"; each edited through the same field definition as the inputs
// (fields.js: kind, choices from the catalog).
const IDENTITY = new Set(['weights', 'engine', 'prompt_tokens', 'flash_attention', 'training.grad_accum',
  'training.offload_params', 'training.lora_targets']);
const settingsOf = (catalog, kind) => (catalog.table_settings?.[kind] ?? []).filter((key) => !IDENTITY.has(key))
  .map((key) => {
    const f = fieldOf(key) ?? { key, kind: 'int' };
    const choices = f.options?.(catalog, kind === 'serving' ? 'inference' : 'full');
    return [key, f.kind === 'bool' ? 'bool' : choices ? 'choice' : f.kind === 'num' ? 'number' : 'int', choices, f];
  });
const get = (obj, key) => key.split('.').reduce((o, part) => o?.[part], obj);

// The guides a cell's rule of thumb comes from, in Chinese (table.cpp seed_rule names them).
const SEED_SOURCES = { "LLaMA-Factory's table": 'LLaMA-Factory 的显存表', "EleutherAI's Transformer Math": 'EleutherAI《Transformer Math 101》' };

// The table's input: the page's market keys, the column edits, and the page's context if asked.
export function tableInput(priced, { columns, applyContext }) {
  const input = {};
  for (const key of ['pricing', 'filters', 'headroom']) if (priced[key] !== undefined) input[key] = priced[key];
  if (Object.keys(columns).length) input.columns = columns;
  if (applyContext) {
    input.context = { seq_len: priced.seq_len ?? 2048 };
    if (priced.training?.tokens) input.context.training = { tokens: priced.training.tokens };
  }
  return input;
}

export function lookupView(root, { catalog, onLoad, compute }) {
  const gpuName = (id) => catalog.gpus.find((g) => g.id === id)?.name.replace(/^NVIDIA /, '') ?? id;
  const body = h('div', { class: 'lookup-body' });
  const details = h('details', { open: edits.open, ontoggle: () => { edits.open = details.open; if (details.open) draw(); } },
    h('summary', {}, h('h2', { id: 'table-h' }, t('sec.table'))), body);
  replace(root, details);
  let timer = 0;

  // The core's English heading; Chinese from i18n (wl.* for the columns whose wording is unchanged).
  const columnLabel = (col) => [`tbl.col.${col.id}`, `wl.${col.id}`].map((k) => has(k) && t(k)).find(Boolean) || col.label;
  const measureValue = (m) => {
    const v = money(m.value, m.currency);
    return m.kind === 'price_per_hour' ? t('tbl.perHour', { v }) : m.kind === 'job_cost' ? t('tbl.job', { v }) : t('tbl.perMillion', { v });
  };
  const cellLines = (cell) => {
    if (cell.error) return [t('cellError', { msg: errorText(cell.error) })];
    if (!cell.fits) return [t('noneFits')];
    const lines = [`${cell.gpus} × ${gpuName(cell.gpu)}`, t('tbl.perGpu', { v: gib(cell.per_gpu_bytes) }), measureValue(cell.measure)];
    // A 16-bit serving column's model released only in a low-bit format is served in that format.
    return cell.as_released ? [...lines, t('tbl.asReleased', { fmt: cell.as_released })] : lines;
  };
  // The arithmetic of a cell, in the page's language, from the core's figures.
  const noteText = (n) => {
    let text = t('tbl.noteWeights', { fmt: n.weights, p: fixed(n.params / 1e9, 2), b: fixed(n.bytes_per_param, 3), w: fixed(n.weights_bytes / GB, 1) });
    if (n.kv_cache_bytes !== undefined) {
      text += t('tbl.noteKv', { kv: fixed(n.kv_cache_bytes / GB, 1), tok: fixed(n.kv_bytes_per_token / 1e6, 3) });
    }
    text += t('tbl.notePlan', { n: n.gpus, per: fixed(n.plan_bytes / n.gpus / GB, 1), all: fixed(n.plan_bytes / GB, 1) });
    return text;
  };
  // Where a guide's rule of thumb falls short of this cell, in one line.
  const seedLine = (n) => t(n.seed.verdict === 'below_weights' ? 'tbl.flagWeights' : 'tbl.flagShort', {
    src: (getLang() === 'zh' && SEED_SOURCES[n.seed.source]) || n.seed.source,
    rule: getLang() === 'zh' ? n.seed.rule.replace(/ x weights$/, ' × 权重') : n.seed.rule, v: fixed(n.seed.bytes / GB, 1), w: fixed(n.weights_bytes / GB, 1),
    pct: int(100 * (1 - n.seed.bytes / n.plan_bytes)) });
  // The scenario the core ranked for a cell, laid out as its plan (the table answer's cell.scenario).
  const scenarioOf = (cell) => forTask(structuredClone(cell.scenario));

  const edit = (col, key, value) => {
    const next = set(edits.columns[col.id] ?? {}, key, value);
    if (Object.keys(next).length) edits.columns[col.id] = next;
    else delete edits.columns[col.id];
    draw();
  };
  function settingInput(col, [key, kind, choices, f]) {
    if (key === 'training.lora_rank' && col.settings.training?.lora_rank === undefined) return null;
    const id = uid('tbl');
    const value = get(col.settings, key);
    const labelKey = `f.${key}${col.kind === 'serving' && (key === 'batch' || key === 'seq_len') ? '.inference' : ''}`;
    const label = h('label', { for: id }, t(labelKey));
    if (kind === 'bool') {
      return h('div', { class: 'field field-bool' }, h('label', { class: 'check' },
        h('input', { id, type: 'checkbox', checked: Boolean(value), 'data-column': col.id, 'data-key': key,
          onchange: (e) => edit(col, key, e.target.checked) }), t(labelKey)));
    }
    if (kind === 'choice') {
      // A setting the column leaves to the planner (the ZeRO stage of LoRA) shows "auto".
      const auto = get(col.defaults, key) === undefined && h('option', { value: '', selected: value === undefined }, t('tbl.auto'));
      return h('div', { class: 'field' }, label, h('select', { id, 'data-column': col.id, 'data-key': key,
        onchange: (e) => {
          const v = e.target.value;
          edit(col, key, v === '' ? undefined : typeof choices[0] === 'number' ? Number(v) : v);
        } },
      auto, choices.map((c) => h('option', { value: String(c), selected: c === value }, optionLabel(f, c, catalog)))));
    }
    return h('div', { class: 'field' }, label, h('input', {
      id, type: 'number', class: 'num', min: kind === 'number' ? '0' : '1', step: kind === 'number' ? 'any' : '1',
      value: value ?? '', placeholder: kind === 'number' ? t('tbl.none') : null, 'data-column': col.id, 'data-key': key,
      onchange: (e) => {
        const v = e.target.value.trim();
        edit(col, key, v === '' ? undefined : Number(v));
      },
    }));
  }
  const measureName = (kind) => t(`tbl.m.${kind}`);
  const settingsBlock = (columns) => h('div', { class: 'lookup-settings' },
    h('label', { class: 'check' }, h('input', { type: 'checkbox', id: 'tbl-apply-context', checked: edits.applyContext,
      onchange: (e) => { edits.applyContext = e.target.checked; draw(); } }), t('tbl.applyContext')),
    h('p', { class: 'hint' }, t('tbl.settingsHint')),
    columns.map((col) => h('fieldset', { class: 'lookup-column', 'data-column': col.id },
      h('legend', {}, columnLabel(col)),
      h('p', { class: 'hint' }, t('tbl.chosenBy', { m: measureName(col.measure) })),
      h('div', { class: 'grid' }, settingsOf(catalog, col.kind).map((spec) => settingInput(col, spec)),
        edits.columns[col.id] && h('div', { class: 'field field-bool' }, h('button', { type: 'button', class: 'small',
          onclick: () => { delete edits.columns[col.id]; draw(); } }, t('tbl.resetColumn')))))));

  function draw() {
    clearTimeout(timer);
    const result = compute((priced) => tableInput(priced, edits));
    details.removeAttribute('aria-busy');
    if (result.error) {
      const field = result.error.field;
      if (field === 'command') {
        replace(body, h('p', { class: 'unavailable' }, t('unavailable', { msg: result.error.message })));
        return;
      }
      // A bad column edit: say so, and offer the way back.
      replace(body, errorBox(result.error), h('button', { type: 'button', onclick: () => {
        edits.columns = {};
        edits.applyContext = false;
        draw();
      } }, t('tbl.resetAll')));
      return;
    }
    const { columns, rows } = result;
    const csv = () => download('gpusizer-table.csv', toCsv([['model', ...columns.map((c) => c.id)],
      ...rows.map((row) => [row.model, ...row.cells.map((c) => cellLines(c).join(' · '))])]), 'text/csv');
    replace(body,
      settingsBlock(columns),
      h('div', { class: 'toolbar' }, h('p', { class: 'hint' }, t('tableHint')),
        h('button', { type: 'button', onclick: csv }, t('exportCsv'))),
      h('div', { class: 'scroll' }, h('table', { class: 'data lookup' },
        h('thead', {}, h('tr', {}, h('td', {}), columns.map((col) => h('th', { scope: 'col', 'data-column': col.id },
          columnLabel(col), h('br'), h('small', { class: 'hint measure-label' }, t('tbl.chosenBy', { m: measureName(col.measure) })))))),
        h('tbody', {}, rows.map((row) => h('tr', {}, h('th', { scope: 'row' }, row.name),
          row.cells.map((cell, i) => {
            const lines = cellLines(cell).map((line) => h('span', {}, line));
            const note = cell.note && noteText(cell.note);
            const flagged = cell.note?.seed && cell.note.seed.verdict !== 'covers';
            const title = [reason(cell, gpuName(cell.gpu)), note].filter(Boolean).join('\n');
            if (flagged) lines.push(h('small', { class: 'hint seed-note' }, seedLine(cell.note)));
            return h('td', { class: cell.fits ? 'ok' : 'bad', title: title || null, 'data-column': columns[i].id }, cell.fits
              ? h('button', { type: 'button', class: 'cell', onclick: () => onLoad(scenarioOf(cell)) }, lines)
              : lines);
          })))))));
  }

  return {
    // The page's scenario changed: the table follows once the inputs settle, if it is open.
    render() {
      clearTimeout(timer);
      if (!details.open) return;
      details.setAttribute('aria-busy', 'true');
      timer = setTimeout(draw, SETTLE_MS);
    },
  };
}
