// The timing loop of bench/bench-wasm.mjs, one file for both places it runs: node imports it,
// and the bench serves it to Chromium (the hosted page's CSP allows same-origin modules, no eval).
// Each figure is one call through the binding: JSON in, the core's work, the answer's string out.
export function timeCalls(gpusizer, cases, iterations) {
  const out = [];
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
    out.push({ label, median: times[Math.floor(times.length / 2)], min: times[0], max: times[times.length - 1] });
  }
  return out;
}
