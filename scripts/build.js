#!/usr/bin/env node
// `npm run build` (and so `npm start`, `npm run replay`, `npm run listen`): brings dist/ up to date
// without ever taking away what a running server serves from it (issue 32: `rm -rf dist` took the
// dashboard of a running API down for 30 s, and every `npm start` rebuilt everything).
//
//   1. `tsc -b`: incremental (tsconfig.build.json sets `incremental`, the .tsbuildinfo lives in
//      dist/), so an unchanged tree compiles nothing and a changed file re-emits only what it
//      affects, in place. Outputs whose source is gone are removed, as `rm -rf` used to.
//   2. tsc-alias rewrites the @app/* imports (idempotent: it touches only files still holding one).
//   3. The dashboard, only when its sources (or Vite, uPlot) changed: Vite builds into a staging
//      folder beside dist/dashboard, the new hashed assets are moved in, then index.html is
//      renamed over the old one (atomic), and only assets of neither this build nor the previous one
//      are removed (a page loaded a moment ago can still fetch its own).
//
//   npm run build                  # what is stale
//   npm run build -- --force       # everything again (still in place); BUILD_FORCE=1 does the same
'use strict';
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} = require('node:fs');
const { join, relative } = require('node:path');

const ROOT = join(__dirname, '..');
const DIST = join(ROOT, 'dist');
const BIN = join(ROOT, 'node_modules', '.bin');
const DASHBOARD_SOURCE = join(ROOT, 'apps', 'dashboard');
const DASHBOARD = join(DIST, 'dashboard');
/** What the dashboard in dist/ was built from, and the assets it wrote: `{ digest, assets }`. */
const STAMP = join(DIST, 'dashboard.build.json');
const ENTRIES = ['api', 'worker', 'replay', 'listen'].map((app) => join(DIST, 'apps', app, 'src', 'main.js'));

const force = process.argv.includes('--force') || /^(1|true)$/i.test(process.env.BUILD_FORCE ?? '');

function run(command, args) {
  const r = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write(
      `build: ${relative(ROOT, command)} ${args.join(' ')} failed (${r.signal ?? `exit ${r.status}`})\n`,
    );
    process.exit(r.status || 1);
  }
}

/** Every file under `dir` (recursively, node_modules aside), sorted. */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? (name === 'node_modules' ? [] : filesUnder(path)) : [path];
    });
}

function compile() {
  // A .tsbuildinfo says nothing about outputs deleted by hand: a missing entry point rebuilds all.
  const rebuild = force || ENTRIES.some((entry) => !existsSync(entry));
  run(join(BIN, 'tsc'), ['-b', 'tsconfig.build.json', ...(rebuild ? ['--force'] : [])]);
  for (const top of ['apps', 'libs']) {
    for (const out of filesUnder(join(DIST, top))) {
      const source = /^(.*)\.js(\.map)?$/.exec(relative(DIST, out));
      if (source && !existsSync(join(ROOT, `${source[1]}.ts`))) unlinkSync(out);
    }
  }
  run(join(BIN, 'tsc-alias'), ['-p', 'tsconfig.build.json']);
}

/** The dashboard's sources and the tools that shape its output (as test/support/dashboard-build.ts digests them). */
function dashboardDigest() {
  const hash = createHash('sha256');
  for (const pkg of ['vite', 'uplot'])
    hash.update(
      `${pkg}@${JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version}\n`,
    );
  for (const file of filesUnder(DASHBOARD_SOURCE))
    hash.update(`${relative(DASHBOARD_SOURCE, file)}\n`).update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return null;
  }
}

function dashboard() {
  const digest = dashboardDigest();
  const stamp = readStamp();
  if (!force && stamp?.digest === digest && existsSync(join(DASHBOARD, 'index.html'))) return;
  mkdirSync(DIST, { recursive: true });
  // Beside the target, on the same file system, so every move below is a rename.
  const staging = mkdtempSync(join(DIST, '.dashboard-'));
  try {
    run(process.execPath, [
      join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      join(DASHBOARD_SOURCE, 'vite.config.mjs'),
      '--outDir',
      staging,
      '--emptyOutDir',
    ]);
    if (!existsSync(join(staging, 'index.html'))) throw new Error(`vite build wrote no index.html into ${staging}`);
    const assets = existsSync(join(staging, 'assets')) ? readdirSync(join(staging, 'assets')) : [];
    mkdirSync(join(DASHBOARD, 'assets'), { recursive: true });
    // Asset names carry their content hash: one already there is this very file.
    for (const name of assets)
      if (!existsSync(join(DASHBOARD, 'assets', name)))
        renameSync(join(staging, 'assets', name), join(DASHBOARD, 'assets', name));
    for (const name of readdirSync(staging))
      if (name !== 'assets' && name !== 'index.html') renameSync(join(staging, name), join(DASHBOARD, name));
    // The page last, once everything it names is in place.
    renameSync(join(staging, 'index.html'), join(DASHBOARD, 'index.html'));
    const keep = new Set([...assets, ...(stamp?.assets ?? readdirSync(join(DASHBOARD, 'assets')))]);
    for (const name of readdirSync(join(DASHBOARD, 'assets')))
      if (!keep.has(name)) rmSync(join(DASHBOARD, 'assets', name), { force: true });
    writeFileSync(`${STAMP}.tmp`, JSON.stringify({ digest, assets }));
    renameSync(`${STAMP}.tmp`, STAMP);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

compile();
dashboard();
