// Groups the scored rows: per group and split, per split and kind, per source.
import { isMemory } from './metrics.mjs';
import { groupKey, pct, scoredOf, stats } from './stats.mjs';

export function summarize(rows, sources) {
  const keys = [];
  for (const r of rows) {
    const k = `${groupKey(r)}|${r.c._split}`;
    if (!keys.includes(k)) keys.push(k);
  }
  const lines = keys.map((k) => {
    const all = rows.filter((r) => `${groupKey(r)}|${r.c._split}` === k);
    return { key: groupKey(all[0]), split: all[0].c._split, kind: all[0].cov.kind, cases: all.length,
      sources: [...new Set(all.map((r) => r.c._source))], ...stats(scoredOf(all).map((r) => r.err)) };
  });
  lines.sort((a, b) => (a.split === b.split ? 0 : a.split === 'calibration' ? -1 : 1) || (isMemory(b.kind) - isMemory(a.kind)) || a.kind.localeCompare(b.kind));
  const kinds = [...new Set(rows.map((r) => r.cov.kind))].sort((a, b) => (isMemory(b) - isMemory(a)) || a.localeCompare(b));
  const splitKind = [];
  for (const split of ['calibration', 'held-out']) {
    for (const kind of kinds) {
      const all = rows.filter((r) => r.c._split === split && r.cov.kind === kind);
      if (all.length) splitKind.push({ split, kind, cases: all.length, ...stats(scoredOf(all).map((r) => r.err)) });
    }
    for (const [label, pred] of [['all memory', (r) => isMemory(r.cov.kind)], ['all speed', (r) => !isMemory(r.cov.kind)]]) {
      const all = rows.filter((r) => r.c._split === split && pred(r));
      if (all.length) splitKind.push({ split, kind: `**${label}**`, cases: all.length, ...stats(scoredOf(all).map((r) => r.err)) });
    }
  }
  // Per source, and the held-out memory aggregate without that source (how much one source moves it).
  const heldMem = (r) => r.c._split === 'held-out' && isMemory(r.cov.kind);
  const perSource = sources.map((s) => {
    const mine = rows.filter((r) => r.c._source === s.id);
    const mem = stats(scoredOf(mine.filter((r) => isMemory(r.cov.kind))).map((r) => r.err));
    const spd = stats(scoredOf(mine.filter((r) => !isMemory(r.cov.kind))).map((r) => r.err));
    const without = s.split === 'held-out' ? stats(scoredOf(rows.filter((r) => heldMem(r) && r.c._source !== s.id)).map((r) => r.err)) : null;
    return { ...s, cases: mine.length, mem, spd, without };
  });
  return { lines, splitKind, perSource, heldMemory: stats(scoredOf(rows.filter(heldMem)).map((r) => r.err)) };
}

export function printSummary(sum) {
  const row = (name, s, cases) => `${name.padEnd(58)} ${String(s.n).padStart(4)}/${String(cases ?? '').padEnd(4)} ` +
    `median ${pct(s.median).padStart(8)}  p90 ${pct(s.p90).padStart(8)}  within 10 % ${pct(s.within10).padStart(8)}`;
  for (const l of sum.splitKind) console.log(row(`${l.split}: ${l.kind.replace(/\*/g, '')}`, l, l.cases));
}
