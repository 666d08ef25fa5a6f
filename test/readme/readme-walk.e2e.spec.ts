import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEYS, startTestApp, type TestApp } from '../support/test-app';

/**
 * The README's walk runs as written: every ```bash block between `<!-- walk:start -->` and
 * `<!-- walk:end -->` of the README, then of docs/guide.md (which continues it), in order, as one script under `set -euo pipefail`, against the app listening
 * on a port with the defaults `npm start` has (sandbox auto-advance on) and an operator token.
 * Every request in it uses `curl --fail-with-body`, so any error status fails the walk.
 */
const README = join(__dirname, '..', '..', 'README.md');
const GUIDE = join(__dirname, '..', '..', 'docs', 'guide.md');
const walkText = (): string => [README, GUIDE].map((file) => readFileSync(file, 'utf8')).join('\n');
const ADMIN_TOKEN = 'walk-admin-token-0123456789abcdef0123456789';
const TOOLS = ['bash', 'curl', 'jq', 'openssl'];

export function walkScript(readme: string): string {
  const sections = [...readme.matchAll(/<!-- walk:start -->([\s\S]*?)<!-- walk:end -->/g)].map((m) => m[1]);
  const blocks = sections.flatMap((section) => [...section.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]));
  return ['set -euo pipefail', ...blocks].join('\n');
}

const missing = TOOLS.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);

describe('the README walk', () => {
  let t: TestApp;
  let api: string;
  let dir: string;

  beforeAll(async () => {
    if (missing.length) return;
    t = await startTestApp({ SANDBOX_AUTO_ADVANCE: 'true', PAYMENTS_ADMIN_TOKEN: ADMIN_TOKEN });
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dir = mkdtempSync(join(tmpdir(), 'readme-walk-'));
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('has walk sections, each with commands', () => {
    const script = walkScript(walkText());
    expect(script.split('\n').length).toBeGreaterThan(40);
    expect(script).not.toMatch(/\$AUTH\b|\$TXN\b/);
  });

  it('runs every command as written on a fresh start', async () => {
    if (missing.length) {
      console.warn(`README walk not run: ${missing.join(', ')} not installed (the walk's commands need them)`);
      return;
    }
    const script = join(dir, 'walk.sh');
    writeFileSync(script, walkScript(walkText()));
    const env = { ...process.env, KEY: KEYS.sandbox, API: api, PAYMENTS_ADMIN_TOKEN: ADMIN_TOKEN };
    // execFile would block the event loop the app answers on: run it asynchronously.
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('bash', process.env.WALK_TRACE ? ['-x', script] : [script], { cwd: dir, env });
      let [stdout, stderr] = ['', ''];
      child.stdout.on('data', (d: Buffer) => (stdout += d));
      child.stderr.on('data', (d: Buffer) => (stderr += d));
      child.on('close', (code: number | null) => resolve({ code, stdout, stderr }));
    });
    if (run.code !== 0)
      throw new Error(
        `the walk failed (exit ${run.code}):\n${run.stderr}\n--- last output ---\n${run.stdout.split('\n').slice(-15).join('\n')}`,
      );
    expect(run.stdout).not.toContain('"status":"error"');
    expect(run.stdout).toContain('"fees:USD"');
    expect(run.stdout).toMatch(/"status":"successful"/);
  }, 120_000);
});
