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

const store = openStore();
const memory = new Map();  // the fallback, and the copy that stays right when a write fails

export const persistent = () => store !== null;

export function load(key, fallback) {
  if (memory.has(key)) return memory.get(key);
  let raw = null;
  try {
    raw = store?.getItem(PREFIX + key) ?? null;
    const value = raw === null ? fallback : JSON.parse(raw);
    memory.set(key, value);
    return value;
  } catch {
    // Unreadable (edited by hand, or another version): keep the text aside rather than lose it.
    try { store?.setItem(`${PREFIX}${key}.unreadable`, raw); } catch { /* nothing more to do */ }
    return fallback;
  }
}

// Returns false when the browser would not keep it (sandbox, quota, private mode).
export function save(key, value) {
  memory.set(key, value);
  try {
    if (!store) return false;
    store.setItem(PREFIX + key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}
