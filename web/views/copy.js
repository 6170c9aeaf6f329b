// A copy-to-clipboard button; where the clipboard is not offered (an insecure context, a
// sandboxed frame) the text beside it stays selectable, so nothing is lost.
import { h } from '../dom.js';
import { t } from '../i18n.js';

export function copyButton(getText) {
  const button = h('button', { type: 'button', class: 'small' }, t('copy'));
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(getText());
      button.textContent = t('copied');
      setTimeout(() => { button.textContent = t('copy'); }, 1500);
    } catch { /* no clipboard (insecure context): the text stays selectable */ }
  });
  return button;
}
