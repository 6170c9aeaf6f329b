// The user's own instance types (pricing.custom_instances, docs/scenario.md) inside the price
// book: a form to add one and the list with delete buttons. prices.js keeps and checks them.
import { h, replace, uid } from '../dom.js';
import { t } from '../i18n.js';

// onAdd(instance) returns an error text, or null once it is added; onDelete(instance).
export function customSection(catalog, { onAdd, onDelete }) {
  const list = h('ul', { class: 'custom-list' });
  const status = h('p', { class: 'field-error', role: 'status' });
  const control = (label, el) => {
    el.id = uid('custom');
    return h('div', {}, h('label', { for: el.id }, label), el);
  };
  const select = (name, options) => h('select', { name }, options.map(([value, text]) => h('option', { value }, text)));
  const name = h('input', { name: 'instance', required: true, autocomplete: 'off' });
  const form = h('form', { class: 'custom-form', onsubmit: add },
    h('div', { class: 'grid' },
      control(t('p.provider'), h('input', { name: 'provider', autocomplete: 'off' })),
      control(t('p.instance'), name),
      control(t('col.gpu'), select('gpu', catalog.gpus.map((g) => [g.id, g.name]))),
      control(t('p.perInstance'), h('input', { name: 'gpus_per_instance', type: 'number', min: 1, max: 64, step: 1, value: 1, required: true })),
      // The core's range (above 0, at most 1e7 an hour); its message covers 0 itself.
      control(t('p.price'), h('input', { name: 'price_per_hour', type: 'number', min: 0, max: 1e7, step: 'any', inputmode: 'decimal', required: true })),
      control(t('f.pricing.currency'), select('currency', catalog.currencies.map((c) => [c, c])))),
    h('button', { type: 'submit' }, t('addCustom')), status);

  // The browser's own checks (required, ranges) run first; the core's answer the rest.
  function add(event) {
    event.preventDefault();
    const d = Object.fromEntries(new FormData(form));
    const error = onAdd({ provider: d.provider.trim(), instance: d.instance.trim(), gpu: d.gpu,
      gpus_per_instance: Number(d.gpus_per_instance), price_per_hour: Number(d.price_per_hour), currency: d.currency });
    status.textContent = error ?? '';
    if (!error) form.reset();
  }

  return {
    el: h('section', { class: 'custom' }, h('h3', {}, t('customTitle')), h('p', { class: 'hint' }, t('customHint')), form, list),
    draw(custom) {
      replace(list, custom.map((c) => h('li', { 'data-instance': c.instance },
        [c.provider, c.instance, `${c.gpus_per_instance} × ${catalog.gpus.find((g) => g.id === c.gpu)?.name ?? c.gpu}`,
          `${c.price_per_hour} ${c.currency}`].filter(Boolean).join(' · '), ' ',
        h('button', { type: 'button', class: 'small', 'aria-label': t('deleteCustom', { name: c.instance }),
          onclick: () => { onDelete(c); name.focus(); } }, t('delete')))));
    },
  };
}
