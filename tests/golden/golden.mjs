// Shared by scripts/golden and tests/wasm/golden.test.mjs: the golden files and the comparison
// (the same rule as tests/core/golden_test.cpp: same keys and strings, numbers to 1e-12 relative).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const goldenDir = dirname(fileURLToPath(import.meta.url));
export const scenariosPath = join(goldenDir, 'scenarios.json');
export const expectedPath = join(goldenDir, 'expected.json');

export const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

// An answer as one JSON value: the result, or {"error": {"field", "message"}} as the wasm
// module returns it.
export const errorValue = (field, message) => ({ error: { field, message } });

// The differences between two JSON values, as "path: actual vs expected" lines (none: equal).
export function differences(actual, expected, path = '$', out = []) {
  if (typeof expected === 'number' && typeof actual === 'number') {
    const scale = Math.max(Math.abs(expected), Math.abs(actual));
    if (Math.abs(actual - expected) > 1e-12 * scale) out.push(`${path}: ${actual} vs ${expected}`);
  } else if (Array.isArray(expected) && Array.isArray(actual)) {
    if (actual.length !== expected.length) out.push(`${path}: ${actual.length} items vs ${expected.length}`);
    else expected.forEach((e, i) => differences(actual[i], e, `${path}[${i}]`, out));
  } else if (expected && actual && typeof expected === 'object' && typeof actual === 'object' &&
             !Array.isArray(expected) && !Array.isArray(actual)) {
    const keys = (o) => Object.keys(o).sort().join(',');
    if (keys(actual) !== keys(expected)) out.push(`${path}: keys ${keys(actual)} vs ${keys(expected)}`);
    else for (const k of Object.keys(expected)) differences(actual[k], expected[k], `${path}.${k}`, out);
  } else if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    out.push(`${path}: ${JSON.stringify(actual)?.slice(0, 200)} vs ${JSON.stringify(expected)?.slice(0, 200)}`);
  }
  return out;
}
