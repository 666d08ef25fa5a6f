'use strict';
// Shared by the bench scripts: where the compiled service is, percentiles, the summary table and its JSON.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

/** The compiled service (`npm run build`); BENCH_DIST points elsewhere, e.g. a private build. */
const dist = (p) => join(process.env.BENCH_DIST || join(__dirname, '..', 'dist'), p);

function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Prints rows as an aligned table and writes them, with the run's context, to bench/results/<name>.json. */
function report(name, rows, context = {}) {
  const columns = Object.keys(rows[0] ?? {});
  const width = (c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length));
  const line = (cells) => cells.map((v, i) => String(v).padEnd(width(columns[i]))).join(' | ');
  console.log(line(columns));
  console.log(columns.map((c) => '-'.repeat(width(c))).join('-|-'));
  for (const r of rows) console.log(line(columns.map((c) => r[c])));
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  const file = join(__dirname, 'results', `${name}.json`);
  writeFileSync(file, JSON.stringify({ name, at: new Date().toISOString(), ...context, rows }, null, 2));
  console.log(`\nwritten: ${file}`);
}

module.exports = { dist, percentile, report };
