// Just enough of the DOM for web/dom.js's h() and s() to run in node at build time, and an
// HTML serializer: scripts/prerender.mjs draws the default scenario's memory card with the
// page's own view code (web/views/results.js) and writes it into the pages as static markup.
// What the views do and this does not model (events, properties other than those listed) is
// dropped: static markup has no behaviour, the page's script replaces it once the core runs.
const VOID = new Set(['br', 'hr', 'img', 'input', 'meta', 'link']);
const escapeText = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s) => escapeText(s).replace(/"/g, '&quot;');

class Text {
  constructor(data) { this.data = String(data); }
  html() { return escapeText(this.data); }
  get textContent() { return this.data; }
}

class Element {
  constructor(tag) {
    this.tag = tag;
    this.attributes = new Map();
    this.children = [];
    // CSSOM writes (the CSP allows them, not style="" attributes): read by the caller.
    this.style = { setProperty(name, value) { this[name] = value; } };
    const el = this;
    this.classList = {
      toggle(name, on) {
        const set = new Set((el.getAttribute('class') ?? '').split(/\s+/).filter(Boolean));
        if (on ?? !set.has(name)) set.add(name); else set.delete(name);
        el.setAttribute('class', [...set].join(' '));
      },
      add(name) { this.toggle(name, true); },
      remove(name) { this.toggle(name, false); },
    };
  }
  setAttribute(name, value) { this.attributes.set(name, String(value)); }
  getAttribute(name) { return this.attributes.get(name) ?? null; }
  removeAttribute(name) { this.attributes.delete(name); }
  addEventListener() {}
  append(...nodes) { for (const n of nodes) this.children.push(typeof n === 'object' ? n : new Text(n)); }
  replaceChildren(...nodes) { this.children = []; this.append(...nodes); }
  set textContent(value) { this.children = [new Text(value)]; }
  get textContent() { return this.children.map((c) => c.textContent).join(''); }
  // Live properties that dom.js sets as such (value, checked, hidden, ...): as attributes here.
  set hidden(on) { if (on) this.setAttribute('hidden', ''); else this.removeAttribute('hidden'); }
  set open(on) { if (on) this.setAttribute('open', ''); else this.removeAttribute('open'); }
  set value(v) { this.setAttribute('value', v); }
  // Every element in document order (this one first).
  *walk() {
    yield this;
    for (const c of this.children) if (c instanceof Element) yield* c.walk();
  }
  html() {
    const attrs = [...this.attributes].map(([k, v]) => (v === '' ? ` ${k}` : ` ${k}="${escapeAttr(v)}"`)).join('');
    if (VOID.has(this.tag)) return `<${this.tag}${attrs}>`;
    return `<${this.tag}${attrs}>${this.children.map((c) => c.html()).join('')}</${this.tag}>`;
  }
}

// Installs globalThis.document (and navigator when absent) for the duration of draw().
export function withStaticDom(draw) {
  const saved = { document: globalThis.document };
  globalThis.document = {
    documentElement: new Element('html'),
    createElement: (tag) => new Element(tag),
    createElementNS: (_ns, tag) => new Element(tag),
  };
  try {
    return draw();
  } finally {
    globalThis.document = saved.document;
  }
}
