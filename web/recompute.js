// The page's recompute on every change, in stages, each painted before the next starts: the
// estimate (the memory card and the inputs), then the fit on each GPU type, then the ranking and
// the launch commands (and the lookup table, which computes only while open), then the link. The
// first figure of the default link is the static card drawn at build time (scripts/prerender.mjs);
// the first stage replaces it. Plain functions of the core, the catalog and the views that
// web/main.js builds; main.js owns the scenario and calls update() after each change.
import { set, toHash } from './state.js';
import { defaultCurrency } from './i18n.js';
import { replace } from './dom.js';
import { memoryCard } from './views/results.js';

const $ = (id) => document.getElementById(id);

// Runs fn once the current state has been painted (a frame, then a task); in a background tab,
// where frames do not come, after a timeout.
export function afterPaint(fn) {
  let done = false;
  const once = () => { if (!done) { done = true; fn(); } };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 100);
}

// The load (requests per second and latency targets) is for the ranking: the estimate, the fit
// table and the launch commands describe the page's own layout.
export function withoutLoad(s) { return s?.load ? set(s, 'load', undefined) : s; }

// The user's price book (book: {overrides, custom_instances}, views/prices.js) rides along as
// pricing.overrides and pricing.custom_instances; it is theirs, so not in the link.
export function withPrices(s, book) {
  const { overrides, custom_instances: custom } = book;
  const own = s.pricing?.currency ? s : set(s, 'pricing.currency', defaultCurrency());  // CNY in Chinese
  const priced = Object.keys(overrides).length ? set(own, 'pricing.overrides', overrides) : own;
  return custom.length ? set(priced, 'pricing.custom_instances', custom) : priced;
}

// page: {scenario, plan, current} (main.js's state: the scenario shown, the ranking's plan whose
// launch commands are shown, what the share actions export), read at each update; views: those
// main.js built; showNotice: main.js's notice of a link it could not take. Returns
// {update, linkArrived, figureShown}: update() recomputes page.scenario; linkArrived() says a new
// link is in the address bar (hashchange), which the recompute must not overwrite;
// figureShown() says the first figure is on screen already (main.js's early card of a linked page).
export function recompute({ core, catalog, views, page, showNotice }) {
  let loaded = false;
  let firstFigure = true;
  // Stages of one recompute; a newer change abandons the stages left of an older one. html.ready
  // (and, the first time, the 'gpusizer-ready' mark) says every stage is done: tests wait for it.
  let generation = 0;
  let knownHash = location.hash;  // the link as the page last read or wrote it
  // What waits for a later stage is dimmed only once a recompute has taken 100 ms (html.waiting,
  // app.css): a CSS transition with that delay, started and cancelled on every edit, cost ~12 ms of
  // the main thread's CPU a recompute in composited layers, style, layout and paint (traced, two
  // builds alternating, 20 edits each), for a dimming a recompute within budget never showed.
  let waiting = 0;

  const whenIdle = (fn) => (!loaded && window.requestIdleCallback
    ? requestIdleCallback(fn, { timeout: 200 }) : setTimeout(fn, 0));

  // The first edit after the page loaded took ~1.7 times as long to its ranking as later ones: V8
  // first runs a new wasm module's functions as baseline code and optimizes the hot ones only after
  // they have run a while. So once the first answer is drawn, the idle page runs the stage-2 and
  // stage-3 calls twice more, one per idle period, and drops their answers; an edit (a new
  // generation) ends it, as the edit runs the same code itself. Measured with scripts/ab-recompute.mjs
  // (12 loads each, the first edit 1 s after 'gpusizer-ready'): the first edit's ranking
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

  function update() {
    const gen = ++generation;
    const { scenario, plan } = page;
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
    page.current = { scenario, estimate };
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
        const priced = withPrices(scenario, views.prices.book());
        // The ranking searches every GPU type and layout (the filters narrow it); the page's own GPU
        // and layout are for the estimate above.
        const open = ['gpu', 'gpus', 'tp', 'pp', 'ep'].reduce((s, key) => set(s, key, undefined), priced);
        const ranked = { ...open, today: new Date().toISOString().slice(0, 10) };
        views.ranking.render(scenario, core.rank(ranked), plan?.instance);
        views.ranking.showError(estimate.error);
        views.lookup.render(scenario);
        views.launch.render(core.launch(plan ? { scenario: withoutLoad(open), plan: { instance: plan.instance } } : { scenario: withoutLoad(priced) }));
        // Every figure is drawn (scripts/bench-page times the recompute's ranking to this mark).
        performance.mark('gpusizer-ranked');
        // Only a scenario the core accepts goes into the link: a shared link always opens. Written
        // last, in a task of its own, not in stage 1: replaceState took ~9 ms a call in Chromium (a
        // profile of 10 edits) and forced a style recalc (a trace), and a
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

  return {
    update,
    linkArrived: () => { knownHash = location.hash; },
    figureShown: () => { firstFigure = false; },
  };
}
