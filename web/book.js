// The user's price book as the browser stored it, read entry by entry through the core: an entry
// the core accepts is applied, one it refuses (a price of 0, a string, a custom instance on a GPU
// the catalog no longer has, a name a catalog update took) is set aside with the core's reason.
// A set-aside entry never blocks the others, stays in storage and goes into the export, so a
// bad value (hand-edited, or from another version) costs nothing but itself.
//
// check(pricing) is the core's verdict on a pricing object beside the default scenario:
// {error: {field, message}} or {warnings: [{code, field, message}]} (main.js builds it).

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// The core's field is pricing.overrides.x or pricing.custom_instances[2].gpu; the book's own
// names drop the "pricing." (they are the keys of the exported file).
export const why = (error) => `${error.field.replace(/^pricing\./, '')}: ${error.message}`;

// A price the core would not apply: its error, or its warning (an unknown instance type).
function refusal(result) {
  if (result.error) return why(result.error);
  const w = result.warnings?.find((x) => x.field.startsWith('pricing.'));
  return w ? why(w) : null;
}

// Returns {overrides, custom_instances, aside}: the applied book, and the entries set aside as
// {kind: 'override' | 'custom', key (instance type, or the list position), value, why}.
// storedPrices must be an object of prices and storedCustom an array; anything else (storage.js
// has already kept it aside) reads as empty.
export function readBook(storedPrices, storedCustom, check) {
  const prices = isObject(storedPrices) ? storedPrices : {};
  const custom = Array.isArray(storedCustom) ? storedCustom : [];
  // One call when all is well, the usual case; entry by entry only when something is refused.
  const whole = check({ overrides: prices, custom_instances: custom });
  if (!refusal(whole)) return { overrides: Object.fromEntries(Object.entries(prices)), custom_instances: [...custom], aside: [] };

  const book = { overrides: {}, custom_instances: [], aside: [] };
  custom.forEach((c, n) => {
    const error = refusal(check({ custom_instances: [...book.custom_instances, c] }));
    if (error) book.aside.push({ kind: 'custom', key: n, value: c, why: error.replace(/\[\d+\]/, `[${n}]`) });
    else book.custom_instances.push(c);
  });
  const applied = [];
  for (const [id, price] of Object.entries(prices)) {
    const error = refusal(check({ overrides: Object.fromEntries([[id, price]]), custom_instances: book.custom_instances }));
    if (error) book.aside.push({ kind: 'override', key: id, value: price, why: error });
    else applied.push([id, price]);
  }
  book.overrides = Object.fromEntries(applied);  // fromEntries: a key such as "__proto__" stays a key
  return book;
}

// What goes back into storage: the applied entries and the set-aside ones, so that nothing the
// user had is lost by a save.
export function storedForm(book) {
  const aside = book.aside.filter((a) => a.kind === 'override' && !Object.hasOwn(book.overrides, a.key));
  return {
    prices: Object.fromEntries([...Object.entries(book.overrides), ...aside.map((a) => [a.key, a.value])]),
    custom: [...book.custom_instances, ...book.aside.filter((a) => a.kind === 'custom').map((a) => a.value)],
  };
}

// The exported file: the applied book, and under "not_applied" what was set aside and why
// (importing the file again takes the applied part only).
export function exportForm(book) {
  const file = { schema: 1, overrides: book.overrides, custom_instances: book.custom_instances };
  if (book.aside.length) {
    file.not_applied = book.aside.map((a) => ({
      entry: a.kind === 'override' ? `overrides.${a.key}` : `custom_instances[${a.key}]`, value: a.value, why: a.why }));
  }
  return file;
}

// A price book file ({"schema": 1, ...}, or {"prices": {...}} of earlier versions) read for
// import: {error} when the file as a whole is refused (nothing changes), else
// {overrides, custom_instances, skipped}: what joins the book, and the overrides that would
// change nothing (unknown instance types), each named with the core's warning.
export function readImport(data, check, custom = []) {
  const book = data?.schema === 1 ? data : isObject(data?.prices) ? { overrides: data.prices } : null;
  if (!isObject(book)) return { error: 'shape' };
  // As the file has them: the core refuses a null or a wrong type, naming the key.
  const given = Object.fromEntries(['overrides', 'custom_instances'].filter((k) => k in book).map((k) => [k, book[k]]));
  const result = check(given);
  if (result.error) return { error: why(result.error) };
  const added = { overrides: given.overrides ?? {}, custom_instances: given.custom_instances ?? [] };
  // An override may name one of the user's instances, already in the book or in the file.
  const names = new Set([...custom, ...added.custom_instances].map((c) => c.instance));
  const skipped = (result.warnings ?? []).filter((w) => w.code === 'unknown_override')
    .filter((w) => !names.has(w.field.slice('pricing.overrides.'.length)));
  const unused = new Set(skipped.map((w) => w.field.slice('pricing.overrides.'.length)));
  const overrides = Object.fromEntries(Object.entries(added.overrides).filter(([id]) => !unused.has(id)));
  return { overrides, custom_instances: added.custom_instances, skipped: skipped.map(why) };
}
