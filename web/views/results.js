// The results column's estimate part: memory per GPU as a number, a stacked bar and a legend;
// the model's facts; speed and time when the core gives them; warnings; the fit on every GPU
// type of the catalog; and the assumptions with their sources.
import { h, replace } from '../dom.js';
import { PARTS, memoryBar } from '../bar.js';
import { bytesPerS, compact, errorText, gb, gib, gibGb, hours, int, kib, millis, percent, rate, reason, seconds, t, warning } from '../i18n.js';

// Marks what a view shows as stale (an input is in error): dimmed, with a line saying why, and
// left otherwise as it was. CSSOM, not a style attribute: the hosted page's CSP allows no inline style.
export function markStale(root, stale) {
  root.classList.toggle('stale', stale);
  for (const el of root.children) {
    if (!el.classList.contains('stale-note')) el.style.opacity = stale ? '0.45' : '';
  }
  root.querySelector(':scope > .stale-note')?.remove();
  if (stale) root.prepend(h('p', { class: 'stale-note notice', role: 'status' }, t('staleNote')));
}

export function resultsView(root, { catalog, onGpu }) {
  let shown = false;
  return {
    render({ scenario, estimate, fits, takes }) {
      // An input in error: its message is at the input (inputs.js); the results of the last valid
      // input stay, marked stale. Before any valid input there is nothing to keep: say it here.
      if (estimate.error && shown) {
        markStale(root, true);
        return;
      }
      shown = !estimate.error;
      markStale(root, false);
      const gpu = catalog.gpus.find((g) => g.id === scenario.gpu);
      replace(root,
        memoryCard(scenario, estimate, gpu, { errorHere: false }),
        !estimate.error && speedCard(estimate, scenario.batch ?? 1),
        !estimate.error && estimate.warnings.length > 0 && warningsCard(estimate),
        !estimate.error && fitsCard(fits, takes, catalog, scenario.gpu, onGpu),
        assumptionsCard(scenario, catalog, gpu));
    },
  };
}

export function errorBox(error) {
  return h('p', { class: 'error-box', role: 'alert' }, errorText(error));
}

// The scenario in one line, so that a screenshot, a print or an embed says what it shows: the
// model, the workload, the format and shape, and the layout (GPU count, TP/PP, ZeRO for training).
function summary(scenario, estimate) {
  const n = scenario.gpus ?? (scenario.tp ?? 1) * (scenario.pp ?? 1);
  const layout = [n === 1 ? t('layoutOne') : t('layoutMany', { n: int(n) }),
    `TP ${scenario.tp ?? 1}`, `PP ${scenario.pp ?? 1}`,
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
    h('tbody', {}, PARTS.map((part) => h('tr', { 'data-part': part, class: breakdown[part] ? '' : 'zero' },
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
  const layout = [entry.tp > 1 && `TP ${entry.tp}`, entry.pp > 1 && `PP ${entry.pp}`, entry.zero > 0 && `ZeRO-${entry.zero}`].filter(Boolean);
  const count = entry.gpus === 1 ? t('takesGpu') : t('takesGpus', { n: entry.gpus });
  return `${count}${layout.length ? ` (${layout.join(', ')})` : ''}`;
}

function fitsCard(fits, takes, catalog, chosen, onGpu) {
  const card = h('section', { class: 'card', 'aria-labelledby': 'fits-h' }, h('h2', { id: 'fits-h' }, t('sec.fits')));
  if (fits.error) {
    card.append(errorBox(fits.error));
    return card;
  }
  // fits: the core's `fits` answer, a row per GPU type at the page's own GPU count and layout.
  const byId = new Map(fits.gpus.map((row) => [row.gpu, row]));
  const rows = catalog.gpus.map((gpu) => ({ gpu, e: byId.get(gpu.id) })).filter(({ e }) => e)
    .sort((a, b) => a.gpu.memory_bytes - b.gpu.memory_bytes || a.gpu.name.localeCompare(b.gpu.name));
  card.append(h('div', { class: 'scroll' }, h('table', { class: 'data fits' },
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, t('col.gpu')), h('th', { scope: 'col', class: 'num' }, t('col.capacity')),
      h('th', { scope: 'col', class: 'num need' }, t('col.need')), h('th', { scope: 'col', class: 'num' }, t('col.free')),
      h('th', { scope: 'col' }, t('col.fits')), h('th', { scope: 'col', class: 'takes' }, t('col.takes')))),
    h('tbody', {}, rows.map(({ gpu, e }) => {
      const free = e.usable_bytes - e.per_gpu_bytes;
      const take = takes?.gpus?.find((x) => x.gpu === gpu.id);
      return h('tr', { 'data-gpu': gpu.id, class: e.fits ? 'ok' : 'bad', 'aria-current': gpu.id === chosen ? 'true' : null },
        h('th', { scope: 'row' }, h('button', { type: 'button', class: 'link', onclick: () => onGpu(gpu.id),
          'aria-label': t('useGpu', { gpu: gpu.name }) }, shortName(gpu.name))),
        h('td', { class: 'num' }, gib(e.usable_bytes)),
        h('td', { class: 'num need' }, gib(e.per_gpu_bytes)),
        h('td', { class: 'num' }, free < 0 ? `−${gib(-free)}` : gib(free)),
        h('td', { class: 'fit' }, e.fits ? '✓' : '✗', h('span', { class: 'fit-word' }, ` ${t(e.fits ? 'yes' : 'no')}`)),
        h('td', { class: `takes ${take?.fits ? 'ok' : 'bad'}`, title: reason(take, gpu.name) }, takesText(take)));
    })))));
  return card;
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
