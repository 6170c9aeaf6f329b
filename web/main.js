// The calculator page: reads the scenario from the link, loads the core once, and on every change
// recomputes in stages, each painted before the next starts (issue 14): the estimate (the memory
// card and the inputs), then the fit on each GPU type, then the ranking and the launch commands
// (and the lookup table, which computes only while open). The pages arrive with the default
// scenario's memory card drawn at build time (scripts/prerender.mjs); the first stage replaces it.
// Data flows one way: an edit makes a new scenario, the scenario makes the results.
import { loadCore } from './facade.js';
import { fromHash, set, switchTask, toHash } from './state.js';
import { checkBook, compactModel, intake } from './intake.js';
import { defaultCurrency, errorMessage, fieldName, getLang, initLang, setEngines, setLang, t } from './i18n.js';
import { h, replace } from './dom.js';
import { inputsView } from './views/inputs.js';
import { memoryCard, resultsView } from './views/results.js';
import { rankingView } from './views/ranking.js';
import { pricesView } from './views/prices.js';
import { lookupView } from './views/lookup.js';
import { launchView } from './views/launch.js';
import { shareActions } from './views/share.js';

const $ = (id) => document.getElementById(id);

const link = fromHash(location.hash);
// Until the first paint the language is the link's or the browser's, as the inline picker's
// (scripts/prerender.mjs); the stored choice is read after it (storedLang): a fresh profile's first
// localStorage read held the parser for 30-60 ms (Chromium traces of the offline page, 2026-12-01).
initLang(link.lang, false);

// The reader's stored choice of language, once the static figure is on screen: where it differs
// from the browser's, the other language's static copy is shown (both are in the page).
function storedLang() {
  const before = getLang();
  initLang(link.lang);
  if (getLang() === before) return;
  document.documentElement.classList.toggle('lang-zh', getLang() === 'zh');
  translateStatic();
}

// Runs fn once the current state has been painted (a frame, then a task); in a background tab,
// where frames do not come, after a timeout.
function afterPaint(fn) {
  let done = false;
  const once = () => { if (!done) { done = true; fn(); } };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 100);
}

let core;
// A link with a scenario of its own has no static figure (html.linked, set by the inline script of
// scripts/prerender.mjs); the default link's paints before the core is unpacked and compiled.
const linked = document.documentElement.classList.contains('linked');
try {
  // The inline start script (scripts/prerender.mjs START_SCRIPT) runs this module after the default
  // link's first paint (a hidden tab, or no paint timing: at once or after a second), so the
  // static texts, which arrive in both languages, are worded only now: earlier, wording them took
  // a second layout of the whole page (~19 ms) while the first frame was still being rasterized (a
  // Chromium trace, 2026-12-01).
  translateStatic();
  storedLang();
  core = await loadCore();
} catch (error) {
  $('status').textContent = t('loadFailed', { msg: error.message });
  throw error;
}
let scenario = link.scenario;
let problem = link.problem;
let plan = null;  // the ranking's plan whose launch commands are shown
let current = {};

// The link, a loaded file, a table cell: checked by the core before use (intake.js); one it
// refuses falls back to the defaults, and the notice says why.
function accept(candidate, candidateProblem) {
  const result = intake(core, candidate, candidateProblem);
  problem = result.problem;
  return result.scenario;
}
scenario = accept(scenario, problem);

// A linked scenario's memory card is drawn and painted before the catalog is read and the inputs
// are built: the first catalog() call took ~230 ms of the ~630 ms to this figure (a Chromium
// profile, 2026-12-01). The estimate names its GPU, so the card needs no catalog.
let firstFigure = true;
if (linked) {
  const early = core.estimate(withoutLoad(scenario));
  if (!early.error) {
    replace($('results'), memoryCard(scenario, early, early.gpu, { errorHere: false }));
    firstFigure = false;
    performance.mark('gpusizer-first-figure');
    await new Promise(afterPaint);
  }
}
const catalog = core.catalog();
setEngines(catalog.engines);

const change = (next) => { scenario = next; update(); };
const handlers = {
  catalog,
  onChange: (key, value) => change(set(scenario, key, value)),
  onModel: (model) => change({ ...scenario, model: compactModel(core, model) }),
  onTask: (task) => { if (task !== scenario.task) change(switchTask(scenario, task)); },
  onGpu: (gpu) => change({ ...scenario, gpu }),
  onLoad: (next) => change(accept(next, null)),
  onPlan: (chosen) => { plan = chosen; update(); $('launch').scrollIntoView({ block: 'nearest' }); },
  onPrices: () => update(),
  checkBook: (pricing) => checkBook(core, pricing),
  compute: (input) => core.table(input(withPrices(scenario))),  // the view picks what the table takes
};
const views = {};
function buildViews() {
  const pricesOpen = $('prices').querySelector('details')?.open;
  views.inputs = inputsView($('inputs'), handlers);
  views.results = resultsView($('results'), handlers);
  views.ranking = rankingView($('ranking'), handlers);
  views.prices = pricesView($('prices'), handlers);
  views.lookup = lookupView($('lookup'), handlers);
  views.launch = launchView($('launch'), handlers);
  if (pricesOpen) $('prices').querySelector('details').open = true;
  shareActions($('actions'), $('embed-dialog'), { current: () => current });
  $('footer').textContent = t('footer', {
    models: catalog.models.length, gpus: catalog.gpus.length, instances: catalog.instances.length });
}

// The load (requests per second and latency targets) is for the ranking: the estimate, the fit
// table and the launch commands describe the page's own layout.
function withoutLoad(s) { return s?.load ? set(s, 'load', undefined) : s; }

let loaded = false;
const whenIdle = (fn) => (!loaded && window.requestIdleCallback
  ? requestIdleCallback(fn, { timeout: 200 }) : setTimeout(fn, 0));

// The first edit after the page loaded took ~1.7 times as long to its ranking as later ones: V8
// first runs a new wasm module's functions as baseline code and optimizes the hot ones only after
// they have run a while. So once the first answer is drawn, the idle page runs the stage-2 and
// stage-3 calls twice more, one per idle period, and drops their answers; an edit (a new
// generation) ends it, as the edit runs the same code itself. Measured with scripts/ab-recompute.mjs
// (12 loads each, the first edit 1 s after 'gpusizer-ready', 2026-12-01): the first edit's ranking
// 45.8 -> 27.9 ms median (p90 59.7 -> 34.9). Once only, it did not help (47.0 against 45.0 ms);
// an edit 50 ms after ready, while V8 still compiles, is slower with it (47.6 against 35.3 ms).
function warmUp(gen, calls) {
  if (!window.requestIdleCallback) return;
  const queue = [...calls, ...calls];
  const next = () => {
    if (gen !== generation || !queue.length) return;
    queue.shift()();
    requestIdleCallback(next);
  };
  requestIdleCallback(next);
}

// Stages of one recompute; a newer change abandons the stages left of an older one. html.ready
// (and, the first time, the 'gpusizer-ready' mark) says every stage is done: tests wait for it.
let generation = 0;
let knownHash = location.hash;  // the link as the page last read or wrote it
// What waits for a later stage is dimmed only once a recompute has taken 100 ms (html.waiting,
// app.css): a CSS transition with that delay, started and cancelled on every edit, cost ~12 ms of
// the main thread's CPU a recompute in composited layers, style, layout and paint (traced, two
// builds alternating, 20 edits each, 2026-12-01), for a dimming a recompute within budget never showed.
let waiting = 0;
function update() {
  const gen = ++generation;
  document.documentElement.classList.remove('ready');
  clearTimeout(waiting);
  waiting = setTimeout(() => document.documentElement.classList.add('waiting'), 100);
  const own = withoutLoad(scenario);
  // Stage 1: the estimate. The memory card takes the place of the one drawn before (the static
  // one, or the last answer's); the cards below it stay, dimmed, until stage 2 redraws them.
  const estimate = core.estimate(own);
  const gpu = catalog.gpus.find((g) => g.id === scenario.gpu);
  views.inputs.render(scenario);
  views.inputs.showError(estimate.error);
  // An input in error keeps the last answer (stage 2 marks it stale); its message is at the input.
  let card = null;
  if (!estimate.error) {
    card = memoryCard(scenario, estimate, gpu, { errorHere: false });
    const shown = $('results').querySelector(':scope > .card.memory');
    if (shown) {
      shown.replaceWith(card);
      $('results').classList.add('pending');
    } else {
      replace($('results'), card);
    }
  }
  showNotice();
  current = { scenario, estimate };
  if (firstFigure) {
    // The first figure the core computed (scripts/bench-page times its paint from here).
    firstFigure = false;
    performance.mark('gpusizer-first-figure');
  }
  // Stage 2: the fit on every GPU type and what each takes.
  afterPaint(() => {
    if (gen !== generation) return;
    performance.mark('gpusizer-stage2');
    const fits = estimate.error ? null : core.fits(own);
    // What it takes on each GPU type: the fewest GPUs and their layout (the page's GPU count aside).
    const anyGpu = ['gpu', 'gpus'].reduce((s, key) => set(s, key, undefined), own);
    const takes = estimate.error ? null : core.takes(anyGpu);
    views.results.render({ scenario, estimate, fits, takes, memory: card });
    $('results').classList.remove('pending');
    // Stage 3: the ranking over the catalog and the launch commands; the lookup table follows
    // the inputs when open. On the first load when the browser is idle (the figures above come
    // first); after a change in the next task, so that the ranking follows within its budget.
    whenIdle(() => {
      if (gen !== generation) return;
      performance.mark('gpusizer-stage3');
      const priced = withPrices(scenario);
      // The ranking searches every GPU type and layout (the filters narrow it); the page's own GPU
      // and layout are for the estimate above.
      const open = ['gpu', 'gpus', 'tp', 'pp'].reduce((s, key) => set(s, key, undefined), priced);
      const ranked = { ...open, today: new Date().toISOString().slice(0, 10) };
      views.ranking.render(scenario, core.rank(ranked), plan?.instance);
      views.ranking.showError(estimate.error);
      views.lookup.render(scenario);
      views.launch.render(core.launch(plan ? { scenario: withoutLoad(open), plan: { instance: plan.instance } } : { scenario: withoutLoad(priced) }));
      // Every figure is drawn (scripts/bench-page times the recompute's ranking to this mark).
      performance.mark('gpusizer-ranked');
      // Only a scenario the core accepts goes into the link: a shared link always opens. Written
      // last, in a task of its own, not in stage 1: replaceState took ~9 ms a call in Chromium (a
      // profile of 10 edits, 2026-11-30) and forced a style recalc (a trace, 2026-12-01), and a
      // burst of edits writes it once.
      setTimeout(() => {
        if (gen !== generation) return;
        const hash = toHash(scenario);
        // Not over a link that arrived since (its hashchange is on its way and recomputes).
        if (!estimate.error && location.hash === knownHash) {
          history.replaceState(null, '', hash ? `#${hash}` : location.pathname);
          knownHash = location.hash;
        }
        if (!loaded && !estimate.error) warmUp(gen, [() => core.fits(own), () => core.takes(anyGpu), () => core.rank(ranked)]);
        performance.mark(loaded ? 'gpusizer-updated' : 'gpusizer-ready');
        loaded = true;
        clearTimeout(waiting);
        document.documentElement.classList.remove('waiting');
        document.documentElement.classList.add('ready');
      }, 0);
    });
  });
}

// The user's price book rides along as pricing.overrides and pricing.custom_instances; it is
// theirs, so not in the link.
function withPrices(s) {
  const { overrides, custom_instances: custom } = views.prices.book();
  const own = s.pricing?.currency ? s : set(s, 'pricing.currency', defaultCurrency());  // CNY in Chinese
  const priced = Object.keys(overrides).length ? set(own, 'pricing.overrides', overrides) : own;
  return custom.length ? set(priced, 'pricing.custom_instances', custom) : priced;
}

function showNotice() {
  const notice = $('notice');
  notice.hidden = !problem;
  if (!problem) return;
  const reason = problem.error ? errorMessage(problem.error) : problem.detail ?? t(`why.${problem.reason}`);
  replace(notice, h('span', {}, t('hashProblem', { key: fieldName(problem.key, scenario.task), reason })),
    h('button', { type: 'button', class: 'small', onclick: () => { problem = null; showNotice(); } }, t('dismiss')));
}

function translateStatic() {
  document.title = t('title');
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
  const lang = $('lang');
  lang.textContent = t('otherLang');
  lang.setAttribute('aria-label', t('langLabel'));
  lang.lang = getLang() === 'zh' ? 'en' : 'zh-CN';
}

$('lang').addEventListener('click', () => {
  setLang(getLang() === 'zh' ? 'en' : 'zh');
  translateStatic();
  buildViews();
  update();
});
// A link pasted into the address bar of an open page, or the back button across links.
window.addEventListener('hashchange', () => {
  knownHash = location.hash;
  const next = fromHash(location.hash);
  scenario = accept(next.scenario, next.problem);
  update();
});

buildViews();
update();
