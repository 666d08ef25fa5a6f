import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';

/** Vite's output names: `assets/<name>-<hash>.<ext>`, one segment, never a dot file. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

export interface DashboardFile {
  readonly body: Buffer;
  readonly type: string;
}

/**
 * The dashboard's built files (apps/dashboard, built by Vite into `DASHBOARD_DIR`), read from disk
 * on each request: a rebuild under a running API is served at once, and nothing outside the
 * folder can be named (one path segment, a known type).
 */
export class DashboardFiles {
  constructor(readonly dir: string) {}

  /** The page, or null when the dashboard is not built. */
  index(): Promise<DashboardFile | null> {
    return this.read(join(this.dir, 'index.html'), 'text/html; charset=utf-8');
  }

  /** A file of `assets/`, or null when there is no such file. */
  asset(name: string): Promise<DashboardFile | null> {
    const type = TYPES[extname(name)];
    if (!ASSET_NAME.test(name) || name.includes('..') || !type) return Promise.resolve(null);
    return this.read(join(this.dir, 'assets', name), type);
  }

  private async read(path: string, type: string): Promise<DashboardFile | null> {
    try {
      return { body: await readFile(path), type };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EISDIR')
        return null;
      throw error;
    }
  }
}
