// Reads the published measurements: data/validation/*.json, one source per file (layout:
// data/validation/README.md). Each file has a `split`: "calibration" (the sources gpusizer's
// constants were fitted to: in-sample) or "held-out" (gathered afterwards: out-of-sample).
import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// Reads every data/validation/*.json; a malformed file is an error naming the file and field.
export function loadData(dir) {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  const cases = [];
  const sources = [];
  const ids = new Map();
  for (const f of files) {
    const where = relative(ROOT, join(dir, f));
    let doc;
    try { doc = JSON.parse(readFileSync(join(dir, f), 'utf8')); } catch (e) { throw new Error(`${where}: not JSON: ${e.message}`); }
    const fail = (field, msg) => { throw new Error(`${where}: ${field}: ${msg}`); };
    if (!doc.source || typeof doc.source.id !== 'string') fail('source.id', 'missing');
    if (doc.source.id !== basename(f, '.json')) fail('source.id', `must equal the file name "${basename(f, '.json')}"`);
    if (doc.split !== 'calibration' && doc.split !== 'held-out') fail('split', 'must be "calibration" or "held-out"');
    if (!Array.isArray(doc.cases) || !doc.cases.length) fail('cases', 'must be a non-empty array');
    doc.cases.forEach((c, i) => {
      const at = `cases[${i}]`;
      for (const k of ['id', 'group', 'metric', 'unit']) if (typeof c[k] !== 'string' || !c[k]) fail(`${at}.${k}`, 'missing');
      // Negative values exist (vLLM's CUDA-graph delta can free memory); they are listed, never scored.
      if (typeof c.value !== 'number' || !Number.isFinite(c.value) || c.value === 0) fail(`${at}.value`, 'must be a non-zero number');
      if (ids.has(c.id)) fail(`${at}.id`, `"${c.id}" also in ${ids.get(c.id)}`);
      ids.set(c.id, where);
      cases.push({ ...c, _source: doc.source.id, _split: doc.split });
    });
    // source.fitted: the constants whose values were chosen from this source's figures; such a
    // source is in-sample and must be a calibration file.
    const fitted = doc.source.fitted || [];
    if (!Array.isArray(fitted) || fitted.some((k) => typeof k !== 'string' || !k)) fail('source.fitted', 'must be an array of constant names');
    if (fitted.length && doc.split !== 'calibration') fail('source.fitted', 'a source that constants were fitted to must have split "calibration"');
    sources.push({ id: doc.source.id, split: doc.split, fitted, ref: doc.source.ref || '', url: doc.source.url || '', n: doc.cases.length });
  }
  return { cases, sources, files };
}
