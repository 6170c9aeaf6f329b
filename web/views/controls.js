// One labelled control per scenario field (fields.js): a select, a checkbox, a number or a group
// of checkboxes; its error line sits under it, tied by aria-describedby. Shared by the inputs and
// the ranking views.
import { h, uid } from '../dom.js';
import { defaultOf } from '../fields.js';
import { get } from '../state.js';
import { defaultCurrency, engineName, errorMessage, fixed, gib, has, providerName, t } from '../i18n.js';

// An id the catalog does not know (the core refuses those, but a label must never throw) shows as
// itself.
export function optionLabel(f, value, catalog) {
  if (f.key === 'gpu' || f.key === 'filters.gpus') {
    const gpu = catalog.gpus.find((g) => g.id === value);
    if (!gpu) return String(value);
    return f.key === 'gpu' ? `${gpu.name} · ${gib(gpu.memory_bytes)}` : gpu.name;
  }
  if (f.key === 'engine') return engineName(value);
  if (f.key === 'filters.providers') {
    return value === 'custom' ? t('customTitle') : providerName(value, catalog.instances.find((i) => i.provider_id === value)?.provider);
  }
  return has(`opt.${value}`) ? t(`opt.${value}`) : String(value);
}

function label(f, task) {
  const specific = `f.${f.key}.${task}`;
  return t(has(specific) ? specific : `f.${f.key}`);
}

// Returns {el, sync(scenario), showError(error)}: showError puts a core error {field, message}
// under the control when the field is its own. onChange(key, value) gets undefined for "unset".
export function fieldControl(f, { catalog, task, onChange }) {
  const id = uid('f');
  const error = h('p', { class: 'field-error', id: `${id}-err`, hidden: true });
  const options = f.options?.(catalog, task);
  const def = defaultOf(f, task, catalog, defaultCurrency());
  if (f.kind === 'list') return checkboxGroup(f, options, { catalog, task, onChange, error });
  let control;
  let write;
  if (options) {
    // A field with a default shows it while unset; one without (the GPU) offers "none".
    control = h('select', { id }, def === undefined && h('option', { value: '' }, t('none')),
      options.map((v) => h('option', { value: String(v) }, optionLabel(f, v, catalog))));
    // Only a value that differs: any write to a select's value, even the same one, has Chromium's
    // autofill re-read every control of the page in a task of its own (5.6-15.8 ms in traces of
    // recomputes), which ran ahead of the next stage.
    write = (v) => { const next = String(v ?? def ?? ''); if (control.value !== next) control.value = next; };
    control.addEventListener('change', () => onChange(f.key,
      control.value === '' ? undefined : f.kind === 'int' ? Number(control.value) : control.value));
  } else if (f.kind === 'bool') {
    control = h('input', { id, type: 'checkbox' });
    write = (v) => { control.checked = v ?? def; };
    control.addEventListener('change', () => onChange(f.key, control.checked));
  } else {
    const scale = f.percent ? 100 : 1;
    control = h('input', {
      id, type: 'number', inputmode: f.kind === 'int' ? 'numeric' : 'decimal',
      step: f.kind === 'int' ? 1 : 'any', min: f.min,
      placeholder: def !== undefined ? `${fixed(def * scale, 0)} (${t('byDefault')})`
        : has(`ph.${f.key}`) ? t(`ph.${f.key}`) : t('byDefault'),
    });
    write = (v) => { control.value = v === undefined ? '' : String(+(v * scale).toPrecision(12)); };
    control.addEventListener('input', () => {
      // A half-typed number ("1e") reads as "" with badInput: say so instead of clearing the key.
      if (control.validity.badInput) return setError(t('why.number'));
      onChange(f.key, control.value === '' ? undefined : Number(control.value) / scale);
    });
  }
  control.setAttribute('aria-describedby', error.id);
  const el = h('div', { class: `field field-${f.kind}`, 'data-key': f.key },
    f.kind === 'bool'
      ? h('label', { class: 'check', for: id }, control, ' ', label(f, task))
      : [h('label', { for: id }, label(f, task)), control],
    error);
  function setError(text) {
    error.textContent = text ?? '';
    error.hidden = !text;
    control.toggleAttribute('aria-invalid', Boolean(text));
  }
  return {
    el,
    showError: (e) => setError(owns(f, e) ? errorMessage(inPercent(f, e)) : null),
    owns: (e) => owns(f, e),
    sync(scenario) {
      if (document.activeElement !== control) write(get(scenario, f.key));
    },
  };
}

// A range of a share shown as a percentage (MFU, headroom) in the control's own unit.
function inPercent(f, e) {
  if (!f.percent || !e.values) return e;
  const scale = (v) => (typeof v === 'number' ? +(v * 100).toPrecision(12) : v);
  return { ...e, values: { ...e.values, min: scale(e.values.min), max: scale(e.values.max), value: scale(e.values.value) } };
}

const owns = (f, error) => Boolean(error) && (error.field === f.key || error.field.startsWith(`${f.key}.`));

// A list filter (providers, GPU types): none ticked means all, which leaves the key unset.
function checkboxGroup(f, options, { catalog, task, onChange, error }) {
  const boxes = options.map((v) => h('input', { type: 'checkbox', value: v, onchange: () => changed() }));
  const summary = h('span', { class: 'summary-value' });
  const changed = () => {
    const picked = boxes.filter((b) => b.checked).map((b) => b.value);
    onChange(f.key, picked.length ? picked : undefined);
  };
  const el = h('details', { class: 'field field-list', 'data-key': f.key },
    h('summary', {}, label(f, task), ': ', summary),
    h('div', { class: 'checks', role: 'group', 'aria-label': label(f, task) },
      boxes.map((box, i) => h('label', { class: 'check' }, box, ' ', optionLabel(f, options[i], catalog)))),
    error);
  return {
    el,
    showError(e) {
      error.textContent = owns(f, e) ? errorMessage(e) : '';
      error.hidden = !owns(f, e);
    },
    owns: (e) => owns(f, e),
    sync(scenario) {
      const found = get(scenario, f.key);
      const picked = Array.isArray(found) ? found : [];
      for (const box of boxes) box.checked = picked.includes(box.value);
      summary.textContent = picked.length ? picked.map((v) => optionLabel(f, v, catalog)).join(', ') : t('all');
    },
  };
}
