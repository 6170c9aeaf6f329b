// The results column's estimate part: memory per GPU as a number, a stacked bar and a legend;
// the model's facts; speed and time when the core gives them; warnings; the fit on every GPU
// type of the catalog; and the assumptions with their sources.
import { h, replace } from '../dom.js';
import { partsOf, memoryBar } from '../bar.js';
import { bytesPerS, compact, errorText, gb, gib, gibGb, hours, int, kib, millis, percent, rate, reason, seconds, t, warning } from '../i18n.js';

// Marks what a view shows as stale (an input is in error): dimmed, with a line saying why, and
// left otherwise as it was. CSSOM, not a style attribute: the hosted page's CSP allows no inline style.
export function markStale(root, stale) {
  root.classList.toggle('stale', stale);
  for (const el of root.children) {
    if (el.classList.contains('stale-note')) continue;
    el.style.opacity = stale ? '0.45' : '';
    if (!el.style.length) el.removeAttribute('style');  // an element kept from before (fitsTable) as it was
  }
  root.querySelector(':scope > .stale-note')?.remove();
  if (stale) root.prepend(h('p', { class: 'stale-note notice', role: 'status' }, t('staleNote')));
}

export function resultsView(root, { catalog, onGpu }) {
  let shown = false;
  const fitsView = fitsTable(catalog, onGpu);
  return {
    // memory: the card that stage 1 drew for this estimate (web/main.js); it stays as it is, since
    // drawing it again cost its style, layout and paint once more. The fit table stays too and
    // changes only its cells (fitsTable).
    render({ scenario, estimate, fits, takes, memory }) {
      // An input in error: its message is at the input (inputs.js); the results of the last valid
      // input stay, marked stale. Before any valid input there is nothing to keep: say it here.
      if (estimate.error && shown) {
        markStale(root, true);
        return;
      }
      shown = !estimate.error;
      markStale(root, false);
      const gpu = catalog.gpus.find((g) => g.id === scenario.gpu);
      keep(root, [
        memory?.parentNode === root ? memory : memoryCard(scenario, estimate, gpu, { errorHere: false }),
        !estimate.error && speedCard(estimate, scenario.batch ?? 1),
        !estimate.error && estimate.warnings.length > 0 && warningsCard(estimate),
        !estimate.error && fitsView.draw(fits, takes, scenario.gpu),
        assumptionsCard(scenario, catalog, gpu)]);
    },
  };
}

// Makes root's children the given elements in order (null and false skipped), leaving in place
// those already there: a node taken out and put back is styled and laid out anew.
export function keep(root, wanted) {
  const list = wanted.filter(Boolean);
  const set = new Set(list);
  for (const child of [...root.childNodes]) if (!set.has(child)) child.remove();
  let at = root.firstChild;
  for (const el of list) {
    if (el === at) at = at.nextSibling;
    else root.insertBefore(el, at);
  }
}

export function errorBox(error) {
  return h('p', { class: 'error-box', role: 'alert' }, errorText(error));
}

// The scenario in one line, so that a screenshot, a print or an embed says what it shows: the
// model, the workload, the format and shape, and the layout (GPU count, TP/PP, ZeRO for training).
function summary(scenario, estimate) {
  const n = scenario.gpus ?? (scenario.tp ?? 1) * (scenario.pp ?? 1) * (scenario.ep ?? 1);
  const layout = [n === 1 ? t('layoutOne') : t('layoutMany', { n: int(n) }),
    `TP ${scenario.tp ?? 1}`, `PP ${scenario.pp ?? 1}`, scenario.ep > 1 && `EP ${scenario.ep}`,
    scenario.task !== 'inference' && `ZeRO-${scenario.training?.zero ?? 0}`].filter(Boolean).join(' · ');
  const parts = [estimate.model?.name, t(`task.${scenario.task}`), scenario.weights,
    scenario.batch && scenario.seq_len && t('shape', { batch: int(scenario.batch), seq: int(scenario.seq_len) }), layout];
  return h('p', { class: 'summary hint' }, parts.filter(Boolean).join(' · '));
}

// errorHere: whether an error is said in the card (the embed); the calculator says it at the input.
export function memoryCard(scenario, estimate, gpu, { errorHere = true } = {}) {
  const card = h('section', { class: 'card memory', 'aria-labelledby': 'memory-h' },
    h('h2', { id: 'memory-h' }, t('sec.memory')), summary(scenario, estimate));
  if (estimate.error) {
    card.append(errorHere ? errorBox(estimate.error) : h('p', { class: 'hint' }, t('fixToSee')));
    return card;
  }
  const { memory, model } = estimate;
  const need = memory.per_gpu_bytes;
  const fit = estimate.gpu;
  const verdict = !gpu ? t('noGpu')
    : t(fit.fits ? 'fits' : 'noFit', { gpu: gpu.name, need: gibGb(need), cap: gibGb(fit.usable_bytes) });
  card.append(
    h('p', { class: 'headline' }, h('output', { class: 'big num', id: 'per-gpu', elementtiming: 'memory-figure' }, gib(need)),
      ' ', h('span', { class: 'hint gb', id: 'per-gpu-gb' }, gb(need))),
    h('p', { class: `verdict ${!gpu ? '' : fit.fits ? 'ok' : 'bad'}`, id: 'verdict' }, verdict),
    estimate.remedies?.length > 0 ? remedies(estimate.remedies, gpu) : '',  // native append would print `false`
    memoryBar(memory.breakdown, fit?.memory_bytes, gpu && t('capacity', { gpu: gpu.name, cap: gib(fit.memory_bytes) })),
    legend(memory.breakdown, need),
    h('dl', { class: 'facts' },
      fact(t('params'), compact(model.params)),
      model.active_params !== model.params && fact(t('activeParams'), compact(model.active_params)),
      model.trainable_params > 0 && fact(t('trainableParams'), compact(model.trainable_params)),
      memory.kv_bytes_per_token > 0 && fact(t('kvPerToken'), kib(memory.kv_bytes_per_token)),
      memory.host_bytes > 0 && fact(t('hostRam'), gib(memory.host_bytes)),
      estimate.max && fact(t('maxBatch'), estimate.max.batch ? int(estimate.max.batch) : t('none')),
      estimate.max && fact(t('maxSeq'), estimate.max.seq_len ? t('tokens', { n: int(estimate.max.seq_len) }) : t('none'))));
  return card;
}

// Each change alone that would shrink the need, with its figure (the core's remedies()).
function remedies(list, gpu) {
  return h('div', { class: 'remedies', id: 'remedies' }, h('p', { class: 'hint' }, t('remediesTitle', { gpu: gpu.name })),
    h('ul', {}, list.map((r) => h('li', { 'data-remedy': r.id, class: r.fits ? 'ok' : 'bad' },
      `${t(`r.${r.id}`)}: ${gib(r.per_gpu_bytes)} · ${t(r.fits ? 'remedyFits' : 'remedyStill')}`))));
}

function legend(breakdown, total) {
  return h('table', { class: 'legend' },
    h('tbody', {}, partsOf(breakdown).map((part) => h('tr', { 'data-part': part, class: breakdown[part] ? '' : 'zero' },
      h('th', { scope: 'row' }, h('span', { class: `swatch seg-${part}`, 'aria-hidden': 'true' }), t(`c.${part}`)),
      h('td', { class: 'num value' }, gib(breakdown[part])),
      h('td', { class: 'num share' }, total ? percent(breakdown[part] / total) : '')))),
    h('tfoot', {}, h('tr', {}, h('th', { scope: 'row' }, t('total')), h('td', { class: 'num' }, gib(total)), h('td', { class: 'num share' }, gb(total)))));
}

const fact = (term, value) => h('div', {}, h('dt', {}, term), h('dd', { class: 'num' }, value));

function speedCard({ throughput: tp, time, gpu }, batch) {
  const card = h('section', { class: 'card', 'aria-labelledby': 'speed-h' }, h('h2', { id: 'speed-h' }, t('sec.speed')));
  card.append(!tp && !time ? h('p', { class: 'hint' }, t(gpu && !gpu.fits ? 'noSpeedNoFit' : 'noSpeed')) : h('dl', { class: 'facts' },
    tp?.prefill_tokens_per_s > 0 && fact(t('prefill'), rate(tp.prefill_tokens_per_s)),
    tp?.decode_tokens_per_s > 0 && fact(t('decode'), rate(tp.decode_tokens_per_s)),
    tp?.generation_tokens_per_s > 0 && fact(t('generation'), rate(tp.generation_tokens_per_s)),
    // The core's figure is the prefill of the whole batch: with several requests arriving together,
    // the last of them gets its first token then.
    tp?.time_to_first_token_s > 0 && fact(batch > 1 ? t('ttftBatch', { n: int(batch) }) : t('ttftOne'), seconds(tp.time_to_first_token_s)),
    tp?.train_tokens_per_s > 0 && fact(t('train'), rate(tp.train_tokens_per_s)),
    time && fact(t('wallHours'), hours(time.wall_hours)),
    time && fact(t('gpuHours'), hours(time.gpu_hours)),
    tp?.bandwidth_utilization > 0 && fact(t('mbu'), percent(tp.bandwidth_utilization)),
    tp?.flops_utilization > 0 && fact(t('mfu'), percent(tp.flops_utilization))));
  if (tp?.curve?.length > 1) card.append(curveTable(tp.curve, batch));
  return card;
}

// Serving as concurrency grows to what the KV cache holds (the core's throughput.curve); the
// scenario's own batch is marked.
function curveTable(curve, batch) {
  return h('details', { class: 'curve' }, h('summary', {}, t('curve')),
    h('p', { class: 'hint' }, t('curveHint')),
    h('div', { class: 'scroll' }, h('table', { class: 'data curve' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', class: 'num' }, t('col.concurrency')), h('th', { scope: 'col', class: 'num' }, t('col.ttft')),
        h('th', { scope: 'col', class: 'num' }, t('col.tpot')), h('th', { scope: 'col', class: 'num' }, t('col.outRate')))),
      h('tbody', {}, curve.map((p) => h('tr', { 'aria-current': p.batch === batch ? 'true' : null },
        h('th', { scope: 'row', class: 'num' }, int(p.batch)), h('td', { class: 'num' }, seconds(p.ttft_s)),
        h('td', { class: 'num' }, millis(p.tpot_s)), h('td', { class: 'num' }, rate(p.output_tokens_per_s))))))));
}

// Each warning worded in the page's language from its code and values (i18n.js warning()).
function warningsCard(estimate) {
  return h('section', { class: 'card warnings', 'aria-labelledby': 'warn-h' },
    h('h2', { id: 'warn-h' }, t('sec.warnings')),
    h('ul', {}, estimate.warning_details.map((w) => h('li', { 'data-code': w.code }, warning(w)))));
}

// The fewest GPUs of a type that fit, and their layout (the core's what_it_takes()).
function takesText(entry) {
  if (!entry) return '—';
  if (!entry.fits) return t('takesNone');
  const layout = [entry.tp > 1 && `TP ${entry.tp}`, entry.pp > 1 && `PP ${entry.pp}`, entry.ep > 1 && `EP ${entry.ep}`, entry.dp_attention && t('dpAttention'), entry.zero > 0 && `ZeRO-${entry.zero}`].filter(Boolean);
  const count = entry.gpus === 1 ? t('takesGpu') : t('takesGpus', { n: entry.gpus });
  return `${count}${layout.length ? ` (${layout.join(', ')})` : ''}`;
}

// The fit on every GPU type: one card for the view's life. A recompute rewrites only the cells
// whose text changed; the rows are built again only when the GPU types listed change. A new copy
// of its 32 rows took 4-13 ms to lay out, the largest part of the frame before the ranking
// (clones of the card in Chromium on this 2-core machine under load).
function fitsTable(catalog, onGpu) {
  const card = h('section', { class: 'card', 'aria-labelledby': 'fits-h' }, h('h2', { id: 'fits-h' }, t('sec.fits')));
  let listed = null;  // the GPU ids of the rows on show, in order ('' for none or an error)
  let cells = new Map();  // GPU id -> the row's changing parts
  const text = (node, value) => { if (node.data !== value) node.data = value; };
  const attr = (el, name, value) => {
    if (value == null) el.removeAttribute(name);
    else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
  };

  function build(rows) {
    cells = new Map();
    const tn = () => document.createTextNode('');
    replace(card, card.firstChild, h('div', { class: 'scroll' }, h('table', { class: 'data fits' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, t('col.gpu')), h('th', { scope: 'col', class: 'num' }, t('col.capacity')),
        h('th', { scope: 'col', class: 'num need' }, t('col.need')), h('th', { scope: 'col', class: 'num' }, t('col.free')),
        h('th', { scope: 'col' }, t('col.fits')), h('th', { scope: 'col', class: 'takes' }, t('col.takes')))),
      h('tbody', {}, rows.map(({ gpu }) => {
        const c = { cap: tn(), need: tn(), free: tn(), mark: tn(), word: tn(), takesText: tn() };
        c.takes = h('td', { class: 'takes' }, c.takesText);
        c.tr = h('tr', { 'data-gpu': gpu.id },
          h('th', { scope: 'row' }, h('button', { type: 'button', class: 'link', onclick: () => onGpu(gpu.id),
            'aria-label': t('useGpu', { gpu: gpu.name }) }, shortName(gpu.name))),
          h('td', { class: 'num' }, c.cap),
          h('td', { class: 'num need' }, c.need),
          h('td', { class: 'num' }, c.free),
          h('td', { class: 'fit' }, c.mark, h('span', { class: 'fit-word' }, c.word)),
          c.takes);
        cells.set(gpu.id, c);
        return c.tr;
      })))));
  }

  return {
    draw(fits, takes, chosen) {
      if (fits.error) {
        listed = '';
        replace(card, card.firstChild, errorBox(fits.error));
        return card;
      }
      // fits: the core's `fits` answer, a row per GPU type at the page's own GPU count and layout.
      const byId = new Map(fits.gpus.map((row) => [row.gpu, row]));
      const rows = catalog.gpus.map((gpu) => ({ gpu, e: byId.get(gpu.id) })).filter(({ e }) => e)
        .sort((a, b) => a.gpu.memory_bytes - b.gpu.memory_bytes || a.gpu.name.localeCompare(b.gpu.name));
      const ids = rows.map(({ gpu }) => gpu.id).join(' ');
      if (ids !== listed) build(rows);
      listed = ids;
      const takesById = new Map((takes?.gpus ?? []).map((x) => [x.gpu, x]));
      for (const { gpu, e } of rows) {
        const c = cells.get(gpu.id);
        const free = e.usable_bytes - e.per_gpu_bytes;
        const take = takesById.get(gpu.id);
        attr(c.tr, 'class', e.fits ? 'ok' : 'bad');
        attr(c.tr, 'aria-current', gpu.id === chosen ? 'true' : null);
        text(c.cap, gib(e.usable_bytes));
        text(c.need, gib(e.per_gpu_bytes));
        text(c.free, free < 0 ? `−${gib(-free)}` : gib(free));
        text(c.mark, e.fits ? '✓' : '✗');
        text(c.word, ` ${t(e.fits ? 'yes' : 'no')}`);
        attr(c.takes, 'class', `takes ${take?.fits ? 'ok' : 'bad'}`);
        attr(c.takes, 'title', reason(take, gpu.name));
        text(c.takesText, takesText(take));
      }
      return card;
    },
  };
}

// "NVIDIA " is dropped on narrow screens (CSS), where the table has no room for it.
const shortName = (name) => (name.startsWith('NVIDIA ') ? [h('span', { class: 'vendor' }, 'NVIDIA '), name.slice(7)] : name);

function assumptionsCard(scenario, catalog, gpu) {
  const preset = typeof scenario.model === 'string' && catalog.models.find((m) => m.id === scenario.model);
  return h('details', { class: 'card assumptions' }, h('summary', {}, t('sec.assumptions')),
    h('ul', {},
      ['a.peak', 'a.usable', 'a.runtime', 'a.units', 'a.gb'].map((key) => h('li', {}, t(key))),
      h('li', {}, preset ? t('a.model', { name: preset.name, repo: preset.hf_repo })
        : t('a.modelOwn', { name: scenario.model?.hf_config ? 'config.json' : compact(scenario.model?.params ?? 0) })),
      gpu && h('li', {}, t('a.gpu', { name: gpu.name, bw: bytesPerS(gpu.bandwidth_bytes_per_s), src: gpu.source }))));
}
