// Files the page hands to the user: CSV of the ranking and the table, JSON of the estimate and
// of the price book. Built in memory and saved through a blob link: nothing leaves the browser.
export function download(filename, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = Object.assign(document.createElement('a'), { href: url, download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

// RFC 4180: quote every field that holds a comma, a quote or a line break. A text cell that a
// spreadsheet could evaluate gets a leading ' (OWASP, "CSV Injection"): one that starts with
// = + - @ or their full-width forms (U+FF1D, U+FF0B, U+FF0D, U+FF20), with a pipe (DDE), a quote,
// or with a tab, carriage return, line feed or space (a formula behind whitespace). Numbers stay
// numbers, a negative one too.
const EVALUATED = /^[=+\-@|"\t\r\n \u3000\uff1d\uff0b\uff0d\uff20]/;
export function toCsv(rows) {
  const cell = (v) => {
    let text = v == null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    if (typeof v !== 'number' && EVALUATED.test(text)) text = `'${text}`;
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return rows.map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}
