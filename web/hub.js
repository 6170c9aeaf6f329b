// A Hub id that is no preset ("org/name", or its huggingface.co / modelscope.cn URL): on the hosted
// page the user can fetch its config.json from the Hugging Face Hub or ModelScope (a button per
// source, the URL shown); the page's CSP allows exactly those two hosts in connect-src
// (web/index.html). The offline file allows no request at all (scripts/build-page.mjs), so there
// the panel says to download config.json and paste it instead. Nothing is fetched unasked.
import { h, replace } from './dom.js';
import { t } from './i18n.js';

// The two places a checkpoint's config.json lives, as the core's "resolve" names them
// (core/src/catalog/model_names.cpp resolve_json config_urls): the Hub's resolve URL on the main
// branch, ModelScope's on master.
export const SOURCES = [
  { name: 'Hugging Face', origin: 'https://huggingface.co', url: (id) => `https://huggingface.co/${id}/resolve/main/config.json` },
  { name: 'ModelScope', origin: 'https://modelscope.cn', url: (id) => `https://modelscope.cn/models/${id}/resolve/master/config.json` },
];

// "org/name" from what the user typed: a bare id or a Hub / ModelScope URL (the part after the
// host, up to the second slash); null for anything else (a preset name, "llama 3.1 8b").
const HOSTS = /^(?:https?:\/\/)?(?:www\.)?(?:huggingface\.co\/|hf\.co\/|modelscope\.cn\/models\/|modelscope\.cn\/)?/i;
const ID = /^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/;
export function hubId(text) {
  const path = String(text ?? '').trim().replace(HOSTS, '').split('/').slice(0, 2).join('/');
  return ID.test(path) && !path.includes('..') ? path : null;
}

// Whether this page may fetch from `origin`: its CSP meta tag lists it in connect-src (the
// offline file's policy has no connect-src, so default-src 'none' refuses every request).
export function canFetch(origin) {
  const policy = document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content ?? '';
  const connect = /(?:^|;)\s*connect-src([^;]*)/.exec(policy);
  return Boolean(connect) && connect[1].trim().split(/\s+/).includes(origin);
}

// {el, show(id | null)}: hidden until show() gets a Hub id; onConfig(object) gets the parsed
// config.json of a successful fetch.
export function hubPanel({ onConfig }) {
  const status = h('p', { class: 'hint hub-status', role: 'status' });
  const el = h('div', { class: 'hub', hidden: true });
  let shown = null;

  async function fetchFrom(source, id) {
    const url = source.url(id);
    status.textContent = t('hub.fetching', { url });
    try {
      // No cookies or credentials go with it: the Hub answers public repositories without them.
      const response = await fetch(url, { credentials: 'omit', redirect: 'follow' });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const config = await response.json();
      if (shown !== id) return;  // the user has moved on to another name
      status.textContent = t('hub.fetched', { url });
      onConfig(config);
    } catch (error) {
      if (shown === id) status.textContent = t('hub.failed', { url, msg: error.message });
    }
  }

  function show(id) {
    el.hidden = !id;
    if (id === shown) return;
    shown = id;
    if (!id) return replace(el);
    status.textContent = '';
    const online = SOURCES.filter((s) => canFetch(s.origin));
    replace(el,
      h('p', { class: 'hint' }, t(online.length ? 'hub.notPreset' : 'hub.offline', { id })),
      h('ul', { class: 'hub-sources' }, SOURCES.map((source) => h('li', {},
        online.includes(source) && h('button', { type: 'button', class: 'small', 'data-source': source.name,
          onclick: () => fetchFrom(source, id) }, t('hub.fetch', { source: source.name })),
        ' ', h('code', { class: 'hub-url' }, source.url(id))))),
      status);
  }

  return { el, show };
}
