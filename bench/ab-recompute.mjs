#!/usr/bin/env node
// A/B of the recompute after an input change, two builds of the page alternating in one browser
// (so that both see the same machine load): per build, the median and p90 of the time from the
// input event to the 'gpusizer-ranked' mark (fits, ranking, launch drawn, as bench/bench-page
// times it) and to the next frame painted after that mark (what the user sees), and of the stage
// marks a build sets ('gpusizer-stage2', 'gpusizer-stage3': each stage's start; web/main.js) and
// the spans between them. On this 2-core machine, shared with builds, a figure alone says little:
// compare the two builds of one run (bench/bench-page measures one build, with its references).
// The first edit of each page is also reported alone ('first: ...'): it runs on code V8 has not yet
// optimized. [wait] is the time from 'gpusizer-ready' to the first edit, as a reader's pause would be.
// Usage: node bench/ab-recompute.mjs <dist A> <dist B> [rounds=10] [edits per page=5] [hosted|offline]
//        [wait ms=0]
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch, ready } from '../tests/e2e/chromium.mjs';
import { startServer } from '../scripts/serve.mjs';

const [a, b] = [process.argv[2], process.argv[3]].map((d) => resolve(d));
const rounds = Number(process.argv[4] ?? 10);
const edits = Number(process.argv[5] ?? 5);
const mode = process.argv[6] ?? 'hosted';
const wait = Number(process.argv[7] ?? 0);
const pick = (xs, q) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const browser = await launch();
const servers = await Promise.all([a, b].map((d) => startServer(d, 0)));
const url = (i) => (mode === 'offline' ? pathToFileURL(join([a, b][i], 'gpusizer.html')).href
  : `http://127.0.0.1:${servers[i].address().port}/index.html`);
const results = [{}, {}];
for (let r = 0; r < rounds; r++) {
  for (const i of r % 2 ? [1, 0] : [0, 1]) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url(i));
    await ready(page);
    await page.waitForTimeout(wait);
    const times = await page.evaluate(async (count) => {
      const input = document.querySelector('[data-key="batch"] input');
      const html = document.documentElement;
      const out = [];
      for (let n = 0; n < count; n++) {
        await new Promise((ok) => setTimeout(ok, 50));
        const t0 = performance.now();
        input.value = String(5 + n);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        const t1 = performance.now();
        // The frame painted after the ranking's mark: a rAF registered right after the mark.
        const shown = new Promise((ok) => new PerformanceObserver((list, obs) => {
          if (list.getEntries().some((e) => e.name === 'gpusizer-ranked' && e.startTime >= t0)) {
            obs.disconnect();
            requestAnimationFrame(() => setTimeout(() => ok(performance.now()), 0));
          }
        }).observe({ type: 'mark' }));
        await new Promise((ok) => { const c = () => (html.classList.contains('ready') ? ok() : setTimeout(c, 1)); c(); });
        const at = (name) => performance.getEntriesByName(name).filter((e) => e.startTime >= t0).at(0)?.startTime - t0;
        out.push({ stage1: t1 - t0, stage2: at('gpusizer-stage2'), stage3: at('gpusizer-stage3'), ranked: at('gpusizer-ranked'), shown: (await shown) - t0 });
      }
      return out;
    }, edits);
    // (A build from before the 'gpusizer-ranked' mark has no such figure, as for the spans below.)
    if (Number.isFinite(times[0].ranked)) (results[i]['first: ranked'] ??= []).push(times[0].ranked);
    for (const t of times) {
      // The stages' own spans where a build marks them: the frame after stage 1 and stage 2, stage 3.
      Object.assign(t, { 'to 2': t.stage2 - t.stage1, '2 to 3': t.stage3 - t.stage2, '3 to mark': t.ranked - t.stage3 });
      for (const [k, v] of Object.entries(t)) if (Number.isFinite(v)) (results[i][k] ??= []).push(v);
    }
    await context.close();
  }
}
for (const i of [0, 1]) {
  console.log(`${'AB'[i]}: ${[a, b][i]} (${mode})`);
  for (const [k, xs] of Object.entries(results[i])) {
    console.log(`  ${k.padEnd(10)} median ${pick(xs, 0.5).toFixed(1).padStart(6)}  p90 ${pick(xs, 0.9).toFixed(1).padStart(6)}  (n=${xs.length})`);
  }
}
await browser.close();
for (const s of servers) s.close();
