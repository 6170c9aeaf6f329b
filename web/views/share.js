// Share and export: the link (the URL hash already holds the whole scenario), the estimate as
// JSON, the iframe snippet for the embed page, and printing (the print stylesheet does the rest).
import { h, replace } from '../dom.js';
import { download } from '../export.js';
import { getLang, t } from '../i18n.js';
import { copyButton } from './copy.js';

export function shareActions(bar, dialog, { current }) {
  const status = h('span', { class: 'hint', role: 'status' });
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      status.textContent = t('linkCopied');
    } catch {
      status.textContent = location.href;  // no clipboard here: show it to copy by hand
    }
  };
  const exportJson = () => {
    const { scenario, estimate } = current();
    download('gpusizer-estimate.json', `${JSON.stringify({ scenario, estimate }, null, 2)}\n`, 'application/json');
  };
  replace(bar,
    h('button', { type: 'button', onclick: copyLink }, t('share')),
    h('button', { type: 'button', onclick: () => openEmbed(dialog) }, t('embed')),
    h('button', { type: 'button', onclick: exportJson }, t('exportJson')),
    h('button', { type: 'button', onclick: () => window.print() }, t('print')),
    status);
}

function embedSnippet(pageUrl, lang) {
  const url = new URL('embed.html', pageUrl);
  url.hash = new URLSearchParams(`${new URL(pageUrl).hash.slice(1)}&lang=${lang}`).toString();
  // The host page listens only to this frame, and sizes it to the height the frame posts.
  return `<iframe id="gpusizer" src="${url.href.replaceAll('"', '&quot;')}" title="gpusizer" width="100%" height="480"`
    + ' sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox" loading="lazy"></iframe>\n'
    + '<script>addEventListener("message",function(e){var f=document.getElementById("gpusizer");'
    + 'if(e.source===f.contentWindow&&e.data&&e.data.type==="gpusizer:height")f.height=e.data.height})</script>\n';
}

function openEmbed(dialog) {
  const code = h('textarea', { class: 'mono', rows: 6, readonly: true, 'aria-labelledby': 'embed-h' });
  code.value = embedSnippet(location.href, getLang());
  replace(dialog,
    h('h2', { id: 'embed-h' }, t('embedTitle')),
    h('p', { class: 'hint' }, t('embedHint')),
    location.protocol === 'file:' && h('p', { class: 'notice' }, t('embedOffline')),
    code,
    h('div', { class: 'toolbar' }, copyButton(() => code.value),
      h('button', { type: 'button', onclick: () => dialog.close() }, t('close'))));
  dialog.showModal();
  code.select();
}
