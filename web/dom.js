// Builds DOM nodes from plain data. No innerHTML (user text such as a config.json never becomes
// markup) and no style attributes (the hosted page's CSP allows no inline style; CSSOM is fine).

// h('button', {class: 'x', onclick: fn, 'aria-label': 'y'}, 'text', childNode, [more])
export function h(tag, props, ...children) {
  return fill(document.createElement(tag), props, children);
}

export function s(tag, props, ...children) {
  return fill(document.createElementNS('http://www.w3.org/2000/svg', tag), props, children);
}

// Live properties rather than attributes: an attribute would only set the initial state.
const PROPERTIES = new Set(['value', 'checked', 'selected', 'disabled', 'hidden', 'open']);

// Replaces el's children; like h(), it skips null and false and flattens arrays, so optional
// parts read as `cond && node`.
export function replace(el, ...children) {
  el.replaceChildren(...clean(children));
}

const clean = (children) => children.flat(Infinity).filter((c) => c != null && c !== false);

function fill(el, props = {}, children) {
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value == null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (PROPERTIES.has(key)) el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  el.append(...clean(children));
  return el;
}

// A unique id for label/for and aria-describedby pairs.
let counter = 0;
export const uid = (prefix) => `${prefix}-${++counter}`;
