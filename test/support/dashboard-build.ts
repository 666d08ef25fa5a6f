import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '../..');
const SOURCE = join(ROOT, 'apps', 'dashboard');

/**
 * The dashboard built from the sources as they are now, for tests (DASHBOARD_DIR): built once per
 * content of apps/dashboard (and Vite and uPlot versions) into node_modules/.cache, so a fresh
 * clone's `npm ci && npm test` builds it, a second run reuses it, and a changed source is built
 * again rather than served stale. Never dist/dashboard, which is `npm run build`'s (scripts/build.js,
 * which digests the sources the same way). Built in a staging folder renamed into place, so a
 * concurrent or crashed build never leaves half a dashboard where another run would trust it.
 */
export async function builtDashboard(): Promise<string> {
  const cache = join(ROOT, 'node_modules', '.cache');
  const target = join(cache, `dashboard-${sourceDigest()}`);
  if (existsSync(join(target, 'index.html'))) return target;
  mkdirSync(cache, { recursive: true });
  const staging = mkdtempSync(join(cache, 'dashboard-build-'));
  try {
    const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
    await promisify(execFile)(
      process.execPath,
      [vite, 'build', '--config', join(SOURCE, 'vite.config.mjs'), '--outDir', staging, '--emptyOutDir'],
      { cwd: ROOT, timeout: 180_000 },
    );
    if (!existsSync(join(staging, 'index.html'))) throw new Error(`vite build wrote no index.html into ${staging}`);
    try {
      renameSync(staging, target);
    } catch (error) {
      if (!existsSync(join(target, 'index.html'))) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  // Builds of sources as they no longer are: nobody asks for them again.
  for (const old of readdirSync(cache))
    if (/^dashboard-[0-9a-f]{16}$/.test(old) && join(cache, old) !== target)
      rmSync(join(cache, old), { recursive: true, force: true });
  return target;
}

function sourceDigest(): string {
  const hash = createHash('sha256');
  for (const pkg of ['vite', 'uplot'])
    hash.update(
      `${pkg}@${(JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version}\n`,
    );
  for (const file of filesUnder(SOURCE)) hash.update(`${relative(SOURCE, file)}\n`).update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? (name === 'node_modules' ? [] : filesUnder(path)) : [path];
    });
}
