// Error statistics, the groups rows are pooled in, and the report's number formats.

export function quantile(sorted, q) {
  if (!sorted.length) return NaN;
  const i = (sorted.length - 1) * q;
  const lo = Math.floor(i);
  return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (i - lo);
}
export function stats(errors) {
  const abs = errors.map(Math.abs).sort((a, b) => a - b);
  return { n: abs.length, median: quantile(abs, 0.5), p90: quantile(abs, 0.9),
    within10: abs.length ? abs.filter((e) => e <= 0.10).length / abs.length : NaN };
}
export const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)} %` : '-');
export const num = (x) => (x === null || x === undefined ? '-' : Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(2));

export const SPLIT_LABEL = { calibration: 'calibration (in-sample)', 'held-out': 'held-out (out-of-sample)' };
export const scoredOf = (rows) => rows.filter((r) => r.err !== undefined && !r.cov.skip);
export const groupKey = (r) => `${r.c.group} · ${r.cov.kind}`;
