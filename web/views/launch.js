// Launch commands and config files (launch(), issue 7) for the plan picked in the ranking, or else
// for the page's own GPU layout: each text in a block with its file name, the tool version its
// flags were checked against, and a copy button; then the notes and warnings the core adds.
import { h, replace } from '../dom.js';
import { t, warning } from '../i18n.js';
import { copyButton } from './copy.js';
import { errorBox } from './results.js';

export function launchView(root, { catalog }) {
  return {
    render(result) {
      const head = h('h2', { id: 'launch-h' }, t('sec.launch'));
      if (result.error) {
        replace(root, head, result.error.field === 'command'
          ? h('p', { class: 'unavailable' }, t('unavailable', { msg: result.error.message }))
          : errorBox(result.error));
        return;
      }
      const p = result.plan;
      const gpu = catalog.gpus.find((g) => g.id === p.gpu)?.name ?? p.gpu;
      replace(root, head,
        h('p', { class: 'hint', id: 'launch-plan' }, t(p.instance ? 'launchOn' : 'launchFor', {
          instance: p.instance, n: p.gpus, gpu, tp: p.tp, pp: p.pp, dp: p.dp, zero: p.zero, dtype: p.dtype })),
        result.commands.map((c) => h('div', { class: 'launch-item' },
          h('div', { class: 'toolbar' },
            h('h3', {}, c.filename ?? c.tool, ' ', h('span', { class: 'hint' }, t('checked', { v: c.version_checked }))),
            copyButton(() => c.text)),
          h('pre', { class: 'mono' }, h('code', { 'data-tool': c.tool, 'data-kind': c.kind }, c.text)))),
        result.notes.length > 0 && h('ul', { class: 'notes' }, result.notes.map((n) => h('li', {}, n))),
        result.warning_details.length > 0 && h('ul', { class: 'notes warn' },
          result.warning_details.map((w) => h('li', { 'data-code': w.code }, warning(w, gpu)))));
    },
  };
}
