import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..', '..');

/**
 * Issue 22, part 3: the typed client's types (clients/typescript/schema.d.ts) are committed; a
 * fresh generation from the app's document must equal them, so the client cannot drift from the
 * API. When this fails: `npm run generate:client`, and commit the result. (openapi-typescript's
 * dependencies are ESM, so the generator runs as the npm script does, in a child process.)
 */
describe('the typed client', () => {
  it('is generated from the current OpenAPI document (npm run generate:client --check)', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts/generate-client.js'), '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, LOG_LEVEL: 'silent' },
    });
    expect({ status: run.status, stderr: run.stderr.trim() }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toContain('clients/typescript/schema.d.ts is up to date');
  }, 150_000);
});
