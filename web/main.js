// The calculator page's start-up and wiring: reads the link, loads the core once, builds the views
// and hands every change to the staged recompute (recompute.js). The pages arrive with the default
// scenario's memory card drawn at build time (scripts/prerender.mjs); a linked page draws its own
// card here as soon as the core can answer. Data flows one way: an edit makes a new scenario, the
// scenario makes the results.
import { loadCore } from './facade.js';
import { fromHash, hashLang, set, setStartingPoints, switchTask } from './state.js';
import { checkBook, compactModel, intake } from './intake.js';
import { errorMessage, fieldName, getLang, initLang, setEngines, setLang, t } from './i18n.js';
import { h, replace } from './dom.js';
import { afterPaint, recompute, withPrices, withoutLoad } from './recompute.js';
import { inputsView } from './views/inputs.js';
import { memoryCard, resultsView } from './views/results.js';
import { rankingView } from './views/ranking.js';
import { pricesView } from './views/prices.js';
import { lookupView } from './views/lookup.js';
import { launchView } from './views/launch.js';
import { shareActions } from './views/share.js';

const $ = (id) => document.getElementById(id);

const linkLang = hashLang(location.hash);
// Until the first paint the language is the link's or the browser's, as the inline picker's
// (scripts/prerender.mjs); the stored choice is read after it (storedLang): a fresh profile's first
// localStorage read held the parser for 30-60 ms (Chromium traces of the offline page).
initLang(linkLang, false);

// The reader's stored choice of language, once the static figure is on screen: where it differs
// from the browser's, the other language's static copy is shown (both are in the page).
function storedLang() {
  const before = getLang();
  initLang(linkLang);
  if (getLang() === before) return;
  document.documentElement.classList.toggle('lang-zh', getLang() === 'zh');
  translateStatic();
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
  // Chromium trace).
  translateStatic();
  storedLang();
  core = await loadCore();
} catch (error) {
  $('status').textContent = t('loadFailed', { msg: error.message });
  throw error;
}
// The tabs' starting points are the core's (state.js), so the link is read only now, and the
// catalog is read before a linked page's first figure: a link's keys mean a scenario only beside
// its tab's starting point. That puts a linked page's first figure later by about one catalog()
// call (offline file, 10 loads each alternating: median 1,105 -> 1,262 ms on the shared 2-core
// build machine); the default link's figure is the static one, painted before any of this.
const catalog = core.catalog();
setStartingPoints(catalog.starting_points);
const link = fromHash(location.hash);
// The page's state, which the recompute reads at each update: the scenario, the ranking's plan
// whose launch commands are shown, and what the share actions export.
const page = { scenario: link.scenario, plan: null, current: {} };
let problem = link.problem;

// The link, a loaded file, a table cell: checked by the core before use (intake.js); one it
// refuses falls back to the defaults, and the notice says why.
function accept(candidate, candidateProblem) {
  const result = intake(core, candidate, candidateProblem);
  problem = result.problem;
  return result.scenario;
}
page.scenario = accept(page.scenario, problem);

// A linked scenario's memory card is drawn and painted before the inputs are built. The estimate
// names its GPU, so the card needs no lookup.
let early = null;
if (linked) {
  early = core.estimate(withoutLoad(page.scenario));
  if (!early.error) {
    replace($('results'), memoryCard(page.scenario, early, early.gpu, { errorHere: false }));
    performance.mark('gpusizer-first-figure');
    await new Promise(afterPaint);
  }
}
setEngines(catalog.engines, catalog.engine_names);

const views = {};
const stages = recompute({ core, catalog, views, page, showNotice });
const update = stages.update;
if (early && !early.error) stages.figureShown();

const change = (next) => { page.scenario = next; update(); };
const handlers = {
  catalog,
  onChange: (key, value) => change(set(page.scenario, key, value)),
  onModel: (model) => change({ ...page.scenario, model: compactModel(core, model) }),
  onTask: (task) => { if (task !== page.scenario.task) change(switchTask(page.scenario, task)); },
  onGpu: (gpu) => change({ ...page.scenario, gpu }),
  onLoad: (next) => change(accept(next, null)),
  onPlan: (chosen) => { page.plan = chosen; update(); $('launch').scrollIntoView({ block: 'nearest' }); },
  onPrices: () => update(),
  checkBook: (pricing) => checkBook(core, pricing),
  // the view picks what the table takes
  compute: (input) => core.table(input(withPrices(page.scenario, views.prices.book()))),
};
function buildViews() {
  const pricesOpen = $('prices').querySelector('details')?.open;
  views.inputs = inputsView($('inputs'), handlers);
  views.results = resultsView($('results'), handlers);
  views.ranking = rankingView($('ranking'), handlers);
  views.prices = pricesView($('prices'), handlers);
  views.lookup = lookupView($('lookup'), handlers);
  views.launch = launchView($('launch'), handlers);
  if (pricesOpen) $('prices').querySelector('details').open = true;
  shareActions($('actions'), $('embed-dialog'), { current: () => page.current });
  $('footer').textContent = t('footer', {
    models: catalog.models.length, gpus: catalog.gpus.length, instances: catalog.instances.length });
}

function showNotice() {
  const notice = $('notice');
  notice.hidden = !problem;
  if (!problem) return;
  const reason = problem.error ? errorMessage(problem.error) : problem.detail ?? t(`why.${problem.reason}`);
  replace(notice, h('span', {}, t('hashProblem', { key: fieldName(problem.key, page.scenario.task), reason })),
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
  stages.linkArrived();
  const next = fromHash(location.hash);
  page.scenario = accept(next.scenario, next.problem);
  update();
});

buildViews();
update();
