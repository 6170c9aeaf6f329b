// Compares gpusizer's estimates with the published measurements in data/validation/*.json and
// writes docs/validation.md. Node only, no dependencies. Reads nothing outside the repository.
//
//   node validation/main.mjs                 regenerate docs/validation.md (scripts/validate runs this)
//   node validation/main.mjs --check         exit 1 when docs/validation.md is not what it would write
//   node validation/main.mjs --out FILE      write elsewhere
//   node validation/main.mjs --data DIR      read another folder of *.json (same layout)
//   GPUSIZER_BIN=/tmp/build/gpusizer node validation/main.mjs
//
// Layout of the data: data/validation/README.md. Each file is one source with a `split`:
// "calibration" (the sources gpusizer's constants were fitted to: in-sample) or "held-out"
// (gathered afterwards: out-of-sample). Each case becomes a scenario; all scenarios go to
// `gpusizer estimate` as one JSON array (one process, fast enough for scripts/test).
// Memory figures that torch.cuda.max_memory_allocated-style counters report are compared without
// the estimate's `runtime` share (CUDA context, workspaces, fragmentation); nvidia-smi-style
// figures with it; engine start-up figures with the matching breakdown entry.
//
// The modules, in the order a run uses them: cases.mjs (reading data/validation), scenario.mjs and
// cover.mjs (each case -> a scenario and the figure it is compared with), core.mjs (running the
// CLI), evaluate.mjs and predict.mjs (estimates -> predictions and errors), stats.mjs and
// summary.mjs (scoring and grouping), report.mjs (docs/validation.md and core/data/ranges.json),
// defaults.mjs (every case again in default settings).
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ROOT, loadData } from './cases.mjs';
import { defaultSettingsSection, statedOnly } from './defaults.mjs';
import { evaluate } from './evaluate.mjs';
import { markdown, rangesJson } from './report.mjs';
import { printSummary, summarize } from './summary.mjs';

function parseArgs(argv) {
  const args = { data: join(ROOT, 'data', 'validation'), out: join(ROOT, 'docs', 'validation.md'), check: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') args.out = resolve(argv[++i]);
    else if (argv[i] === '--data') args.data = resolve(argv[++i]);
    else if (argv[i] === '--check') args.check = true;
    else throw new Error(`unknown argument "${argv[i]}" (use --check, --out FILE, --data DIR)`);
  }
  args.bin = process.env.GPUSIZER_BIN || join(ROOT, 'build', 'native', 'gpusizer');
  return args;
}

// Per-case dump for analysis (speed model work), where GPUSIZER_VALIDATE_ROWS names a file.
function dumpRows(rows, file) {
  writeFileSync(file, JSON.stringify(rows.map((r) => ({ id: r.c.id, group: r.c.group, source: r.c._source,
    split: r.c._split, kind: r.cov.kind, metric: r.c.metric, value: r.c.value, pred: r.pred, err: r.err, skip: r.cov.skip,
    engine: r.cov.scenario && r.cov.scenario.engine, gpu: r.c.gpu_id, scenario: r.cov.scenario }))));
}

const readOr = (file, fallback) => {
  try { return readFileSync(file, 'utf8'); } catch { return fallback; }
};

// --check: exits 1 when ranges.json or the page is not what this run would write.
function check(args, text, rangesPath, ranges) {
  if (readOr(rangesPath, '') !== ranges) {  // missing counts as stale
    console.error('core/data/ranges.json is stale: run scripts/validate, rebuild and commit both');
    process.exit(1);
  }
  if (readOr(args.out, '') !== text) {
    console.error(`${relative(ROOT, args.out)} is stale: run scripts/validate and commit the result`);
    process.exit(1);
  }
  console.log(`${relative(ROOT, args.out)} is up to date`);
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const data = loadData(args.data);
  const rows = evaluate(data.cases, args.bin);
  const sum = summarize(rows, data.sources);
  if (process.env.GPUSIZER_VALIDATE_ROWS) dumpRows(rows, process.env.GPUSIZER_VALIDATE_ROWS);
  printSummary(sum);
  // The hand-written notes follow the generated tables, when there are any.
  let text = markdown(rows, sum, data);
  // The same cases in default settings, after the tables of today's scoring.
  text += defaultSettingsSection(rows, evaluate(data.cases, args.bin, statedOnly)).join('\n') + '\n';
  const notes = readOr(join(ROOT, 'docs', 'validation-notes.md'), null);
  if (notes !== null) text += '\n' + notes;
  const rangesPath = join(ROOT, 'core', 'data', 'ranges.json');
  const ranges = rangesJson(rows);
  if (args.check) return check(args, text, rangesPath, ranges);
  writeFileSync(args.out, text);
  if (args.data === join(ROOT, 'data', 'validation')) writeFileSync(rangesPath, ranges);
  console.log(`wrote ${relative(ROOT, args.out)}`);
}

try {
  main();
} catch (e) {
  console.error(`error: ${e.message}`);
  process.exit(2);
}
