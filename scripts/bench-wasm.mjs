// Times `rank` over the whole catalog and the full `table` in the shipped wasm module
// (dist/gpusizer.mjs with dist/gpusizer.wasm, after scripts/build).
// Usage: node scripts/bench-wasm.mjs [iterations]
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { readFile } = await import('node:fs/promises');
const { default: createGpusizer } = await import(path.join(root, 'dist/gpusizer.mjs'));
const gpusizer = await createGpusizer({ wasmBinary: new Uint8Array(await readFile(path.join(root, 'dist/gpusizer.wasm'))) });
const iterations = Number(process.argv[2] ?? 20);

const cases = [
  ['rank (serving, whole catalog)', 'rank', { model: 'qwen2.5-72b', batch: 8 }],
  ['rank (training, whole catalog)', 'rank', { model: 'llama-3.1-70b', task: 'full', training: { tokens: 1e9 } }],
  ['table (11 models x 5 workloads)', 'table', {}],
];

for (const [label, fn, scenario] of cases) {
  const input = JSON.stringify(scenario);
  const first = JSON.parse(gpusizer[fn](input));  // warm-up, and a check that it answers
  if (first.error) throw new Error(`${label}: ${first.error.field}: ${first.error.message}`);
  const times = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    gpusizer[fn](input);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`${label.padEnd(34)} median ${median.toFixed(2)} ms  min ${times[0].toFixed(2)} ms  (${iterations} runs)`);
}
