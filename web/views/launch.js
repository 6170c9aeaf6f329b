// Launch commands and config files (launch()) for the plan picked in the ranking, or else
// for the page's own GPU layout: each text in a block with its file name, the tool version its
// flags were checked against, and a copy button; then the notes and warnings the core adds, worded
// in the page's language from their codes and values (i18n.js note(), warning()).
import { h, replace } from '../dom.js';
import { note, t, warning } from '../i18n.js';
import { copyButton } from './copy.js';
import { errorBox, markStale } from './results.js';

export function launchView(root, { catalog }) {
  let drawn = false;
  return {
    render(result) {
      const head = h('h2', { id: 'launch-h' }, t('sec.launch'));
      if (result.error) {
        // A scenario error has its message at its input: the last commands stay, marked stale.
        // What only the launch can say (no plan to launch) is said here.
        if (!result.error.field.startsWith('plan') && result.error.field !== 'command') {
          if (drawn) markStale(root, true);
          else replace(root, head);
          return;
        }
        drawn = false;
        markStale(root, false);
        replace(root, head, result.error.field === 'command'
          ? h('p', { class: 'unavailable' }, t('unavailable', { msg: result.error.message }))
          : errorBox(result.error));
        return;
      }
      drawn = true;
      markStale(root, false);
      const p = result.plan;
      const gpu = catalog.gpus.find((g) => g.id === p.gpu)?.name ?? p.gpu;
      const notes = result.note_details ?? result.notes.map((message) => ({ message }));
      replace(root, head,
        h('p', { class: 'hint', id: 'launch-plan' }, t(p.instance ? 'launchOn' : 'launchFor', {
          instance: p.instance, n: p.gpus, gpu, tp: p.tp, pp: p.pp, extra: `${p.ep > 1 ? ` · EP ${p.ep}` : ''}${p.dp_attention ? ` · ${t('dpAttention')}` : ''}`, dp: p.dp, zero: p.zero, dtype: p.dtype })),
        result.commands.map((c) => h('div', { class: 'launch-item' },
          h('div', { class: 'toolbar' },
            h('h3', {}, c.filename ?? c.tool, ' ', h('span', { class: 'hint' }, t('checked', { v: c.version_checked }))),
            copyButton(() => c.text)),
          h('pre', { class: 'mono' }, h('code', { 'data-tool': c.tool, 'data-kind': c.kind }, c.text)))),
        notes.length > 0 && h('ul', { class: 'notes' }, notes.map((n) => h('li', { 'data-code': n.code ?? null }, note(n)))),
        result.warning_details.length > 0 && h('ul', { class: 'notes warn' },
          result.warning_details.map((w) => h('li', { 'data-code': w.code }, warning(w)))));
    },
  };
}
