// Runs the core: the native CLI (build/native/gpusizer, or GPUSIZER_BIN) on the scenarios.
import { spawnSync } from 'node:child_process';

export function runCli(bin, command, input) {
  const r = spawnSync(bin, input === undefined ? [command] : [command, '-'], {
    input: input === undefined ? undefined : JSON.stringify(input),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.error) throw new Error(`cannot run ${bin}: ${r.error.message}`);
  if (r.status !== 0) return { error: r.stderr.trim() };
  return { value: JSON.parse(r.stdout) };
}

// All scenarios to `gpusizer estimate` as one JSON array (one process, fast enough for scripts/test).
export function estimateAll(bin, scenarios) {
  if (!scenarios.length) return [];
  const batch = runCli(bin, 'estimate', scenarios);
  if (!batch.error) return batch.value.map((value) => ({ value }));
  if (scenarios.length <= 4) return scenarios.map((s) => runCli(bin, 'estimate', s));  // find the bad one(s)
  const half = scenarios.length >> 1;  // bisect: one bad scenario costs log(n) calls, not n
  return [...estimateAll(bin, scenarios.slice(0, half)), ...estimateAll(bin, scenarios.slice(half))];
}

// Speed figures need the presets' shapes and the cards' peaks (filled by loadLists).
export const PRESETS = new Map();
export const GPUS = new Map();
// Engine id -> the versions the core checked ({version, releases, ...}: catalog.engine_versions).
export const VERSIONS = new Map();

// The core's model presets and GPU catalog; returns the presets and the set of GPU ids.
export function loadLists(bin) {
  const presets = runCli(bin, 'models').value;
  const gpus = runCli(bin, 'gpus').value;
  for (const p of presets) PRESETS.set(p.id, p);
  for (const g of gpus) GPUS.set(g.id, g);
  for (const [engine, rows] of Object.entries(runCli(bin, 'catalog').value.engine_versions)) VERSIONS.set(engine, rows);
  return { presets, catalog: new Set(gpus.map((g) => g.id)) };
}
