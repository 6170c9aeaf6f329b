// The compact page for an iframe: the scenario from the hash, the memory card and a one-line fit
// summary, a link to the full calculator, and its height posted to the host page so the frame
// can size itself. Works in <iframe sandbox="allow-scripts"> (opaque origin: storage.js copes).
import { loadCore } from './facade.js';
import { fromHash, setStartingPoints } from './state.js';
import { gib, initLang, setEngines, t } from './i18n.js';
import { h, replace } from './dom.js';
import { memoryCard } from './views/results.js';

const root = document.getElementById('embed');
const core = await loadCore();
const catalog = core.catalog();
setEngines(catalog.engines, catalog.engine_names);
setStartingPoints(catalog.starting_points);  // a link's keys are read beside its tab's

function render() {
  const link = fromHash(location.hash);
  initLang(link.lang);
  const { scenario } = link;
  const estimate = core.estimate(scenario);
  const gpu = catalog.gpus.find((g) => g.id === scenario.gpu);
  const fits = estimate.error ? null : core.fits(scenario);
  const fitting = catalog.gpus.filter((g) => fits?.gpus?.some((row) => row.gpu === g.id && row.fits));
  const smallest = fitting.reduce((a, b) => (b.memory_bytes < a.memory_bytes ? b : a), fitting[0]);
  const full = new URL('index.html', location.href);
  full.hash = location.hash;
  replace(root,
    link.problem && h('p', { class: 'notice' }, t('hashProblem', { key: link.problem.key, reason: t(`why.${link.problem.reason}`) })),
    memoryCard(scenario, estimate, gpu),
    !estimate.error && h('p', { class: 'hint', id: 'embed-fits' }, smallest ? t('embedFits', {
      n: fitting.length, of: catalog.gpus.length, smallest: `${smallest.name} (${gib(smallest.memory_bytes)})` })
      : t('embedNone', { of: catalog.gpus.length })),
    h('p', { class: 'embed-foot' }, h('a', { href: full.href, target: '_blank', rel: 'noopener' }, t('openFull'), ' ↗')));
}

// The host page sizes the frame from this (see the snippet in views/share.js): the content's own
// height, not the document's, which is never less than the frame's and so would never shrink.
const post = () => parent.postMessage({ type: 'gpusizer:height',
  height: Math.ceil(document.body.getBoundingClientRect().height + parseFloat(getComputedStyle(document.body).marginTop) + parseFloat(getComputedStyle(document.body).marginBottom)) }, '*');
new ResizeObserver(post).observe(document.body);
window.addEventListener('hashchange', render);
render();
post();
// The first full render is done: tests wait for the class, scripts/bench-page reads the mark.
performance.mark('gpusizer-ready');
document.documentElement.classList.add('ready');
