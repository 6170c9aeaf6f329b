// The inputs column: the model (a searchable preset, a pasted or dropped config.json, or a bare
// parameter count), the workload tabs, and every field of fields.js that the tab uses, the rarely
// changed ones folded into <details>. Edits go out through onChange; nothing is computed here.
import { h, replace, uid } from '../dom.js';
import { FIELDS, appliesTo } from '../fields.js';
import { compact, errorMessage, errorText, int, kib, t } from '../i18n.js';
import { fieldControl } from './controls.js';
import { hubId, hubPanel } from '../hub.js';

const GROUPS = ['workload', 'training', 'hardware', 'advanced'];

export function inputsView(root, { catalog, onChange, onModel, onTask }) {
  let controls = [];
  let model = null;
  let builtFor = '';
  // An error that no input of the page owns (the input as a whole, a key the page has no control
  // for): it goes here, at the top of the inputs, once.
  const general = h('p', { class: 'error-box', role: 'alert', hidden: true });

  function build(scenario) {
    model = modelSection(catalog, onModel);
    const tabs = taskTabs(catalog.tasks, scenario.task, onTask);
    const groups = Object.fromEntries(GROUPS.map((g) => [g, []]));
    controls = FIELDS.filter((f) => f.group !== 'cost' && appliesTo(f, scenario.task)).map((f) => {
      const c = fieldControl(f, { catalog, task: scenario.task, onChange });
      groups[f.group].push(c.el);
      return c;
    });
    const panel = h('div', { class: 'fields', role: 'tabpanel', id: 'task-panel', 'aria-labelledby': `tab-${scenario.task}` },
      h('div', { class: 'grid' }, groups.workload),
      groups.training.length > 0 && h('fieldset', {}, h('legend', {}, t('group.training')), h('div', { class: 'grid' }, groups.training)),
      h('fieldset', {}, h('legend', {}, t('group.hardware')), h('div', { class: 'grid' }, groups.hardware)),
      h('details', { class: 'advanced' }, h('summary', {}, t('group.advanced')), h('div', { class: 'grid' }, groups.advanced)));
    replace(root, general,
      h('section', { class: 'card', 'aria-labelledby': 'model-h' }, h('h2', { id: 'model-h' }, t('sec.model')), model.el),
      h('section', { class: 'card', 'aria-labelledby': 'workload-h' }, h('h2', { id: 'workload-h' }, t('sec.workload')), tabs, panel));
  }

  return {
    // Rebuilds when the tab changed (its fields and options differ), else syncs the values.
    render(scenario) {
      if (scenario.task !== builtFor) build(scenario);
      builtFor = scenario.task;
      model.sync(scenario.model);
      for (const c of controls) c.sync(scenario);
    },
    // A core error {field, message} goes under the control it is about (the results show it too).
    showError(error) {
      const path = error?.field.replace(/^\[\d+\]\./, '');
      const isModel = Boolean(path?.startsWith('model'));
      model.setError(isModel ? error : null);
      for (const c of controls) c.showError(error);
      // Cost keys (pricing, filters, load) have their controls in the ranking section.
      const cost = FIELDS.some((f) => f.group === 'cost' && (path === f.key || path?.startsWith(`${f.key}.`)))
        || /^(pricing|filters|load)\b/.test(path ?? '');
      const placed = !error || isModel || cost || controls.some((c) => c.owns(error));
      general.textContent = placed ? '' : errorText(error);
      general.hidden = placed;
    },
  };
}

function taskTabs(TASKS, current, onTask) {
  const buttons = TASKS.map((task) => h('button', {
    type: 'button', role: 'tab', id: `tab-${task}`, 'aria-selected': String(task === current),
    'aria-controls': 'task-panel', tabindex: task === current ? 0 : -1, onclick: () => onTask(task),
  }, t(`task.${task}`)));
  // Arrow keys move between tabs (WAI-ARIA tabs pattern); Tab leaves the tab list.
  const keydown = (event) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (!step) return;
    const next = (TASKS.indexOf(current) + step + TASKS.length) % TASKS.length;
    onTask(TASKS[next]);
    document.getElementById(`tab-${TASKS[next]}`)?.focus();
  };
  return h('div', { class: 'tabs', role: 'tablist', 'aria-label': t('sec.workload'), onkeydown: keydown }, buttons);
}

// The three ways to name a model; the mode is the view's own state until a valid model is set.
let windowListeners = null;

function modelSection(catalog, onModel) {
  const modeOf = (m) => (typeof m === 'string' ? 'preset' : m?.hf_config ? 'config' : 'params');
  let mode = 'preset';
  const ids = { preset: uid('model'), config: uid('config'), params: uid('params'), list: uid('presets') };
  const error = h('p', { class: 'field-error', id: uid('model-err'), role: 'alert', hidden: true });

  const preset = h('input', { id: ids.preset, list: ids.list, autocomplete: 'off', spellcheck: 'false',
    'aria-describedby': `${ids.preset}-h ${error.id}` });
  const byName = new Map(catalog.models.flatMap((m) => [[m.id, m.id], [m.name.toLowerCase(), m.id]]));
  // `typing`: the box holds the user's unfinished text, which a recompute must not overwrite; a
  // new link (hashchange) ends it, as does committing (change) or leaving the box.
  let typing = false;
  let last;
  preset.addEventListener('focus', () => preset.select());
  preset.addEventListener('blur', () => { typing = false; });
  // One model box is on the page at a time: the listener of the box it replaces (a tab or language
  // switch builds a new one) is removed with it, or each switch would keep the old box alive.
  windowListeners?.abort();
  windowListeners = new AbortController();
  window.addEventListener('hashchange', () => {
    typing = false;
    if (preset.isConnected && last !== undefined) sync(last);
  }, { signal: windowListeners.signal });
  preset.addEventListener('input', () => { typing = true; });
  preset.addEventListener('input', () => { if (byName.has(preset.value.toLowerCase())) onModel(byName.get(preset.value.toLowerCase())); });
  // On commit (Enter, blur) even an unknown name goes to the core, which names the problem.
  preset.addEventListener('change', () => { typing = false; });
  preset.addEventListener('change', () => onModel(byName.get(preset.value.toLowerCase()) ?? preset.value.trim()));
  const facts = h('p', { class: 'hint facts', id: `${ids.preset}-h` });
  // A Hub id that is no preset: its fetched config.json becomes the model, shown in the config.json tab.
  const hub = hubPanel({ onConfig: (config) => { setMode('config'); onModel({ hf_config: config }); } });
  const datalist = h('datalist', { id: ids.list },
    catalog.models.map((m) => h('option', { value: m.id, label: `${m.name} · ${compact(m.params)}` })));

  const config = h('textarea', { id: ids.config, rows: 7, spellcheck: 'false', class: 'mono',
    placeholder: '{"model_type": "llama", "hidden_size": 4096, ...}', 'aria-describedby': `${ids.config}-h ${error.id}` });
  const readConfig = (text) => {
    try {
      onModel({ hf_config: JSON.parse(text) });
    } catch (e) {
      show({ field: 'model.hf_config', page: t('configJson', { msg: e.message }) });
    }
  };
  config.addEventListener('input', () => readConfig(config.value));
  // A large file goes to the core but not into the box, which then shows the keys the core keeps
  // (the browser takes seconds to lay out a 5 MB line of text).
  const loadFile = async (file) => {
    const text = await file.text();
    config.value = text.length > 100_000 ? '' : text;
    readConfig(text);
  };
  config.addEventListener('dragover', (e) => { e.preventDefault(); config.classList.add('drop'); });
  config.addEventListener('dragleave', () => config.classList.remove('drop'));
  config.addEventListener('drop', (e) => {
    e.preventDefault();
    config.classList.remove('drop');
    if (e.dataTransfer.files[0]) loadFile(e.dataTransfer.files[0]);
  });
  const file = h('input', { type: 'file', accept: '.json,application/json', class: 'visually-hidden', id: uid('file'),
    onchange: () => file.files[0] && loadFile(file.files[0]) });

  const params = h('input', { id: ids.params, type: 'number', min: 0.001, step: 'any', inputmode: 'decimal',
    placeholder: '7', 'aria-describedby': `${ids.params}-h ${error.id}` });
  params.addEventListener('input', () => {
    if (params.value !== '') onModel({ params: Number(params.value) * 1e9 });
  });

  const panels = {
    preset: h('div', { class: 'field' }, h('label', { for: ids.preset }, t('f.model')), preset, datalist, facts, hub.el),
    config: h('div', { class: 'field' }, h('label', { for: ids.config }, t('f.hf_config')), config,
      h('p', { class: 'hint', id: `${ids.config}-h` }, t('h.hf_config'), ' ',
        h('label', { for: file.id, class: 'button small' }, t('chooseFile')), file)),
    params: h('div', { class: 'field' }, h('label', { for: ids.params }, t('f.params')), params,
      h('p', { class: 'hint', id: `${ids.params}-h` }, t('h.params'))),
  };
  const radios = Object.keys(panels).map((m) => h('label', { class: 'seg-option' },
    h('input', { type: 'radio', name: 'model-mode', value: m, onchange: () => setMode(m) }), ' ', t(`mode.${m}`)));
  function setMode(next) {
    mode = next;
    for (const [m, panel] of Object.entries(panels)) panel.hidden = m !== mode;
    for (const r of radios) r.firstChild.checked = r.firstChild.value === mode;
  }
  // Under the model box: the message alone, or with config.json's key when it is about one.
  function show(err) {
    const path = err?.field.replace(/^\[\d+\]\./, '');
    const text = !err ? '' : err.page ?? (/^model\.hf_config\./.test(path) ? errorText(err) : errorMessage(err));
    error.textContent = text;
    error.hidden = !err;
    hub.show(err?.field === 'model' ? hubId(preset.value) : null);
    for (const input of [preset, config, params]) input.toggleAttribute('aria-invalid', Boolean(err));
  }

  return {
    el: h('div', {}, h('div', { class: 'segmented', role: 'radiogroup', 'aria-label': t('sec.model') }, radios),
      Object.values(panels), error),
    setError: show,
    sync,
  };
  function sync(m) {
    last = m;
    if (!panels[mode].contains(document.activeElement)) setMode(modeOf(m));
    // Unless the user is typing in it, the box shows the scenario's model: a link or a table
    // cell that names another model (or none by preset) leaves no stale name behind.
    if (!typing) preset.value = typeof m === 'string' ? m : '';
    if (m?.hf_config && document.activeElement !== config) config.value = JSON.stringify(m.hf_config, null, 2);
    if (m?.params !== undefined && document.activeElement !== params) params.value = String(m.params / 1e9);
    const info = typeof m === 'string' && catalog.models.find((x) => x.id === m);
    facts.textContent = info ? t('modelFacts', {
      params: compact(info.params), layers: int(info.layers), heads: int(info.heads), kv: int(info.kv_heads),
      kvtok: kib(info.kv_bytes_per_token_bf16),
    }) : t('h.model');
  }
}
