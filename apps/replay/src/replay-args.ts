import type { ReplayOptions } from './replay';

/** `--verify` is the default; `--rebuild` also replaces differing live documents; `--organization ID` limits both. */
export function parseArgs(argv: readonly string[]): ReplayOptions {
  const org = argv.indexOf('--organization');
  const unknown = argv.filter((a, i) => !['--verify', '--rebuild', '--organization', '--no-progress'].includes(a) && i !== org + 1);
  if (unknown.length || (org >= 0 && !argv[org + 1])) throw new Error(`usage: replay [--verify] [--rebuild] [--organization ID] (unknown: ${unknown.join(' ')})`);
  return { verify: true, rebuild: argv.includes('--rebuild'), organizationId: org >= 0 ? argv[org + 1] : undefined, progress: !argv.includes('--no-progress') && process.stderr.isTTY };
}
