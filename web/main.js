// The calculator page: reads the scenario from the link, loads the core once, and on every change
// recomputes everything (the estimate, the fit on each GPU type, the ranking, the table, the
// launch commands) and writes the scenario back into the link. Data flows one way: an edit makes a
// new scenario, the scenario makes the results.
import { loadCore } from './facade.js';
import { fromHash, set, switchTask, toHash } from './state.js';
import { checkBook, compactModel, intake } from './intake.js';
import { defaultCurrency, errorMessage, fieldName, getLang, initLang, setEngines, setLang, t } from './i18n.js';
import { h, replace } from './dom.js';
import { inputsView } from './views/inputs.js';
import { resultsView } from './views/results.js';
import { rankingView } from './views/ranking.js';
import { pricesView } from './views/prices.js';
import { lookupView } from './views/lookup.js';
import { launchView } from './views/launch.js';
import { shareActions } from './views/share.js';

const $ = (id) => document.getElementById(id);

const link = fromHash(location.hash);
initLang(link.lang);
translateStatic();

let core;
try {
  core = await loadCore();
} catch (error) {
  $('status').textContent = t('loadFailed', { msg: error.message });
  throw error;
}
const catalog = core.catalog();
setEngines(catalog.engines);
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

function update() {
  const own = withoutLoad(scenario);
  const estimate = core.estimate(own);
  const fits = estimate.error ? null : core.estimate(catalog.gpus.map((g) => ({ ...own, gpu: g.id })));
  // What it takes on each GPU type: the fewest GPUs and their layout (the page's GPU count aside).
  const takes = estimate.error ? null : core.takes(['gpu', 'gpus'].reduce((s, key) => set(s, key, undefined), own));
  const priced = withPrices(scenario);
  // The ranking searches every GPU type and layout (the filters narrow it); the page's own GPU
  // and layout are for the estimate above.
  const open = ['gpu', 'gpus', 'tp', 'pp'].reduce((s, key) => set(s, key, undefined), priced);
  views.inputs.render(scenario);
  views.ranking.render(scenario, core.rank({ ...open, today: new Date().toISOString().slice(0, 10) }), plan?.instance);
  views.inputs.showError(estimate.error);
  views.ranking.showError(estimate.error);
  views.results.render({ scenario, estimate, fits, takes });
  views.lookup.render(scenario);
  views.launch.render(core.launch(plan ? { scenario: withoutLoad(open), plan: { instance: plan.instance } } : { scenario: withoutLoad(priced) }));
  showNotice();
  current = { scenario, estimate };
  // Only a scenario the core accepts goes into the link: a shared link always opens.
  const hash = toHash(scenario);
  if (!estimate.error) history.replaceState(null, '', hash ? `#${hash}` : location.pathname);
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
  const next = fromHash(location.hash);
  scenario = accept(next.scenario, next.problem);
  update();
});

buildViews();
update();
// The first full render is done: tests wait for the class, scripts/bench-page reads the mark.
performance.mark('gpusizer-ready');
document.documentElement.classList.add('ready');
