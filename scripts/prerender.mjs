// The first figure at first paint: at build time the shipped core (the wasm module, run
// by node as tests/wasm do) answers the page's default scenario, and the page's own view code
// (web/views/results.js, on the small DOM of scripts/lib/static-dom.mjs) draws the memory card
// (headline figure, fit verdict, bar, breakdown, facts) in English and in Chinese. The pages carry
// both as static markup; an inline script (START_SCRIPT, which also starts the app) shows the
// reader's language before the
// first paint, and hides both when the link's hash carries a scenario of its own (that link's
// answer is not the default's). The page's script replaces them once the core has run.
import { createHash } from 'node:crypto';
import { withStaticDom } from './lib/static-dom.mjs';
import { defaults, set, setStartingPoints } from '../web/state.js';
import { intake } from '../web/intake.js';
import { gib, initLang, setEngines, t } from '../web/i18n.js';
import { memoryCard } from '../web/views/results.js';

export const LANGS = ['en', 'zh'];

// Runs before the first paint, inline (its SHA-256 goes into the CSP). Mirrors i18n.js initLang
// without the stored choice (the link's lang=, else navigator.language: a fresh profile's first
// localStorage read held the parser for 30-60 ms; web/main.js applies the stored choice right after
// the first paint) and state.js fromHash (any
// key but lang= is a scenario of the link's own). Sets html[lang] and the classes app.css reads:
// lang-zh shows the Chinese copy, linked hides both.
// Then starts the page's app: a link with its own scenario waits for the core, so the app and the core's files (data-core)
// are fetched at once and the app runs when the document is parsed, as a module script would; the
// default link's figure is in the HTML, and its app runs after that figure is on screen: evaluating
// it before took the first paint from 144 to 168 ms (medians of 15, alternating).
const LANG_PART = `var d=document.documentElement,p=new URLSearchParams(location.hash.slice(1)),l=p.get("lang"),k=0;`
  + `if(l==null)l=(navigator.language||"").toLowerCase().indexOf("zh")==0?"zh":"en";`
  + `if(l=="zh"){d.lang="zh-CN";d.classList.add("lang-zh")}`
  + `p.forEach(function(v,n){if(n!="lang")k=1});if(k)d.classList.add("linked");`;
// Then the page's app: the hosted pages' module (data-app, beside it the core's files, data-core), or
// the offline file's loader, whose text waits in an inert block (data-loader, the block's id).
export const START_SCRIPT = `(function(){${LANG_PART}`
  + `var s=document.currentScript.dataset,a=s.app||s.loader,pre=function(f){var e=document.createElement("link");e.rel="modulepreload";e.href=f;document.head.appendChild(e)},`
  + `go=function(){if(a){var e=document.createElement("script");e.type="module";if(s.app)e.src=a;else e.textContent=document.getElementById(a).textContent;a=0;document.head.appendChild(e)}},`
  + `parsed=function(){document.readyState=="loading"?document.addEventListener("DOMContentLoaded",go):go()};`
  + `if(k||document.visibilityState=="hidden"){if(s.app)pre(a);if(s.core)s.core.split(" ").forEach(pre);return parsed()}`
  + `try{new PerformanceObserver(function(x,o){if(x.getEntriesByName("first-contentful-paint").length){o.disconnect();parsed()}}).observe({type:"paint",buffered:true})}catch(e){parsed()}`
  + `setTimeout(parsed,1000)})()`;
export const scriptHash = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

// core: {estimate(s), fits(s), catalog()} on plain objects; keys: web/i18n.js keys of the page's
// static texts. Returns {card: {en, zh}, fits: {en, zh}, texts: {key: {en, zh}}, css}:
// card the memory card's markup, fits the embed page's one-line fit summary, texts each key's words (both languages' texts escaped for HTML), css the rules that
// place the capacity label (a style="" attribute would need 'unsafe-inline' in the CSP).
export function prerender(core, keys = []) {
  const catalog = core.catalog();
  setStartingPoints(catalog.starting_points);  // the default tab's, as the page's (web/main.js)
  setEngines(catalog.engines, catalog.engine_names);  // the engines' names in the controls, as the page's
  const { scenario } = intake(core, defaults(), null);
  // The page computes the estimate without the load (web/main.js withoutLoad), as here.
  const own = scenario.load ? set(scenario, 'load', undefined) : scenario;
  const estimate = core.estimate(own);
  if (estimate.error) throw new Error(`the default scenario fails in the core: ${JSON.stringify(estimate.error)}`);
  const gpu = catalog.gpus.find((g) => g.id === own.gpu);
  // The same fit on every GPU type as the embed's (web/embed.js): the core's `fits`.
  const fits = core.fits(own);
  const fitting = catalog.gpus.filter((g) => fits.gpus.some((row) => row.gpu === g.id && row.fits));
  const smallest = fitting.reduce((a, b) => (b.memory_bytes < a.memory_bytes ? b : a), fitting[0]);
  const out = { card: {}, fits: {}, texts: Object.fromEntries(keys.map((key) => [key, {}])), css: '' };
  for (const lang of LANGS) {
    withStaticDom(() => {
      initLang(lang);
      const card = memoryCard(own, estimate, gpu);
      for (const key of keys) out.texts[key][lang] = escape(t(key));
      // Ids unique across the two copies; the live card takes the plain ones.
      for (const el of card.walk()) {
        for (const attr of ['id', 'aria-labelledby']) {
          if (el.getAttribute(attr)) el.setAttribute(attr, `${el.getAttribute(attr)}-${lang}`);
        }
        // The bar's shapes to a hundredth of a unit of its 1000-wide viewBox: the same picture, fewer bytes.
        if (el.tag === 'rect' || el.tag === 'line') {
          for (const [k, v] of el.attributes) if (/^-?\d+\.\d{3,}$/.test(v)) el.setAttribute(k, String(Math.round(Number(v) * 100) / 100));
        }
        if (el.style['--at']) out.css += `.pre-${lang} .cap-label{--at:${el.style['--at']}}`;
      }
      card.classList.add('prerendered');
      out.card[lang] = card.html();
      out.fits[lang] = `<p class="hint">${escape(t('embedFits', { n: fitting.length, of: catalog.gpus.length,
        smallest: smallest ? `${smallest.name} (${gib(smallest.memory_bytes)})` : '—' }))}</p>`;
    });
  }
  return out;
}

const escape = (text) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

// Both languages of a short text (a data-i18n element's), for the inline picker to choose from.
export const bothLangs = (texts) => LANGS.map((lang) => `<span class="only-${lang}"${lang === 'zh' ? ' lang="zh-CN"' : ''}>${texts[lang]}</span>`).join('');

// The two copies, marked by language for app.css (the Chinese one hidden unless html.lang-zh);
// `extra[lang]` follows the card inside its copy.
export function staticMarkup({ card }, extra = {}) {
  return LANGS.map((lang) => `<div class="pre pre-${lang} only-${lang}" lang="${lang === 'zh' ? 'zh-CN' : 'en'}">${card[lang]}${extra[lang] ?? ''}</div>`).join('');
}
