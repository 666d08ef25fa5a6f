import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../support/test-app';

// A fresh clone builds everything first (tsc and Vite) on a busy machine: minutes, not seconds.
jest.setTimeout(600_000);

const ROOT = join(__dirname, '..', '..');

/** `npm run <args>` in the repository: its exit status and what it printed. */
function npm(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; output: string }> {
  const child = spawn('npm', ['run', '--silent', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
  const output: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => output.push(c));
  child.stderr.on('data', (c: Buffer) => output.push(c));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output: Buffer.concat(output).toString() }));
  });
}

/**
 * Issue 32: `npm run replay -- --verify` ran `npm run build` first, which began with `rm -rf dist`,
 * and a running server's /dashboard answered 404 until the build was done. The build now updates
 * dist/ in place (scripts/build.js); BUILD_FORCE makes this one rebuild everything, so the page and
 * its assets really are rewritten while they are being served.
 */
describe('npm run replay -- --verify under a server serving the dashboard from dist/', () => {
  let t: TestApp | undefined;
  afterAll(() => t?.close());

  it('rebuilds dist/ while /dashboard and its assets answer 200 throughout', async () => {
    const built = await npm(['build']);
    expect({ status: built.status, output: built.output }).toMatchObject({ status: 0 });
    t = await startTestApp({ DASHBOARD_DIR: join(ROOT, 'dist', 'dashboard') });
    const page = await t.http.get('/dashboard').expect(200);
    const assets = [
      ...new Set([...page.text.matchAll(/\/dashboard\/(assets\/[^"']+)/g)].map((m) => `/dashboard/${m[1]}`)),
    ];
    expect(assets.length).toBeGreaterThan(0);

    const answers: string[] = [];
    let building = true;
    const polling = (async () => {
      while (building) {
        for (const path of ['/dashboard', ...assets]) answers.push(`${path} ${(await t!.http.get(path)).status}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const replay = await npm(['replay', '--', '--verify', '--no-progress'], {
      BUILD_FORCE: '1',
      DATA_DIR: t.dataDir,
      EVENTSTORE_URL: '',
      MONGO_URL: '',
      KAFKA_BROKERS: '',
    }).finally(() => (building = false));
    await polling;

    expect({ status: replay.status, output: replay.output }).toMatchObject({
      status: 0,
      output: expect.stringContaining('OK:'),
    });
    // Every poll was made while the build and the replay ran (between spawn and exit).
    expect(answers.length).toBeGreaterThan(assets.length);
    expect([...new Set(answers.filter((a) => !a.endsWith(' 200')))]).toEqual([]);
  });
});
