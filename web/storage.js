// What the browser keeps between visits: the language and the user's price book. Every access
// is guarded: in a sandboxed iframe (opaque origin) or with storage disabled, localStorage
// throws on access, and the page must keep working with what is in memory.
const PREFIX = 'gpusizer.';

function openStore() {
  try {
    const store = window.localStorage;
    store.getItem(PREFIX + 'probe');
    return store;
  } catch {
    return null;
  }
}

// Opened on first use, not when the module loads: a fresh profile's first localStorage access held
// the main thread for 30-60 ms (Chromium traces), which must come after the first paint.
let opened;
const storeNow = () => (opened === undefined ? (opened = openStore()) : opened);
const memory = new Map();  // the fallback, and the copy that stays right when a write fails

export const persistent = () => storeNow() !== null;

// The stored value of key, or fallback when there is none. A value that does not parse, or that
// `valid` refuses (null where an object belongs, a hand edit, another version's format), is not
// used: its text is kept aside under gpusizer.<key>.unreadable rather than lost, and
// setAside(key) says so.
export function load(key, fallback, valid = () => true) {
  if (memory.has(key)) return memory.get(key);
  let raw = null;
  try {
    raw = storeNow()?.getItem(PREFIX + key) ?? null;
    const value = raw === null ? fallback : JSON.parse(raw);
    if (!valid(value)) throw new Error('refused');
    memory.set(key, value);
    return value;
  } catch {
    asideKeys.add(key);
    try { storeNow()?.setItem(`${PREFIX}${key}.unreadable`, raw); } catch { /* nothing more to do */ }
    return fallback;
  }
}

const asideKeys = new Set();
export const setAside = (key) => asideKeys.has(key);

// Returns false when the browser would not keep it (sandbox, quota, private mode).
export function save(key, value) {
  memory.set(key, value);
  try {
    const store = storeNow();
    if (!store) return false;
    store.setItem(PREFIX + key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}
