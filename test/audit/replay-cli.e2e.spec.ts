import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * The source of what `npm run replay` runs (package.json: `node dist/apps/replay/src/main.js`), run
 * as its own process through ts-register.js, so the test needs no build and sees the real argv,
 * streams and exit status.
 */
function replayEntry(): string {
  const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts.replay;
  const match = /^node dist\/(\S+)\.js$/.exec(script ?? '');
  if (!match) throw new Error(`package.json "replay" should be "node dist/<entry>.js", not ${script}`);
  return join(ROOT, `${match[1]}.ts`);
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A DATA_DIR path nobody created: if the CLI read its configuration, the directory would appear. */
function untouchedDataDir(): string {
  const parent = mkdtempSync(join(tmpdir(), 'replay-cli-'));
  dirs.push(parent);
  return join(parent, 'data');
}

function replay(args: string[], dataDir: string) {
  const run = spawnSync(process.execPath, ['-r', join(__dirname, 'ts-register.js'), replayEntry(), ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      EVENTSTORE_URL: '',
      MONGO_URL: '',
      KAFKA_BROKERS: '',
      PAYMENTS_MASTER_KEY: '',
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('npm run replay: command line (node:util parseArgs, strict)', () => {
  it.each([
    [['--help']],
    [['-h']],
    [['--verify', '--help']],
    [['--organization', 'org_01ARZ3NDEKTSV4RRFFQ69G5FAV', '-h']],
  ])('%j prints the usage on stdout and exits 0 without running anything', (args) => {
    const dataDir = untouchedDataDir();
    const run = replay(args, dataDir);
    expect(run).toEqual({ status: 0, stdout: expect.stringMatching(/^Usage: npm run replay -- /), stderr: '' });
    for (const flag of ['--verify', '--rebuild', '--organization ID', '--no-progress', '-h, --help'])
      expect(run.stdout).toContain(flag);
    expect(existsSync(dataDir)).toBe(false);
  });

  it.each([
    [['--bogus'], "Unknown option '--bogus'"],
    [['--verify', '--rebuld'], "Unknown option '--rebuld'"],
    [['-x'], "Unknown option '-x'"],
    [['verify'], "Unexpected argument 'verify'"],
    [['--verify=yes'], "'--verify' does not take an argument"],
    [['--organization'], "'--organization <value>' argument missing"],
    [['--organization', '--verify'], "'--organization' argument is ambiguous"],
    [['--organization', 'acme'], '--organization must be an organization id'],
    [['--help', '--bogus'], "Unknown option '--bogus'"],
  ])('%j: exit 2, the reason and the usage on stderr, nothing run', (args, reason) => {
    const dataDir = untouchedDataDir();
    const run = replay(args, dataDir);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(reason);
    expect(run.stderr).toMatch(/^replay: .*\n[\s\S]*\nUsage: npm run replay -- /);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('still runs with valid arguments: an empty log verifies, exit 0', () => {
    const dataDir = untouchedDataDir();
    for (const args of [
      ['--verify', '--no-progress'],
      ['--organization', 'org_01ARZ3NDEKTSV4RRFFQ69G5FAV', '--no-progress'],
    ]) {
      const run = replay(args, dataDir);
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
      expect(run.stdout).toContain('OK: chains whole, read models equal the replay, ledger balances');
    }
  });
});
