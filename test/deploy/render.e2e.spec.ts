import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { APPS, ROOT, compose, kubernetes } from './manifests';

/**
 * deploy/ rendered by the tools that deploy it (issue 22, part 7), beside the parsing checks of
 * deploy.e2e.spec.ts: `kubectl kustomize deploy/k8s` and Compose's `config`. Neither is an npm
 * package, so each block runs where its binary is on PATH and otherwise says why it did not.
 */
const has = (binary: string, args: string[]) => spawnSync(binary, args, { encoding: 'utf8' }).status === 0;

const kubectl = has('kubectl', ['version', '--client']);
if (!kubectl)
  console.warn(
    'kubectl kustomize test skipped: no kubectl on PATH (it is not an npm package; install kubectl to run it)',
  );
(kubectl ? describe : describe.skip)('kubectl kustomize deploy/k8s', () => {
  type Doc = Record<string, any>;
  let rendered: Doc[];

  beforeAll(() => {
    const run = spawnSync('kubectl', ['kustomize', join(ROOT, 'deploy', 'k8s')], { encoding: 'utf8', timeout: 60_000 });
    if (run.status !== 0) throw new Error(`kubectl kustomize failed (${run.status}):\n${run.stderr}`);
    rendered = parseAllDocuments(run.stdout).map((d) => d.toJS() as Doc);
  });

  it('renders every object of the listed files, each in the payments namespace', () => {
    const key = (o: Doc) => `${o.kind}/${o.metadata.name}`;
    expect(rendered.map(key).sort()).toEqual(kubernetes().objects.map(key).sort());
    for (const o of rendered.filter((o) => o.kind !== 'Namespace'))
      expect([key(o), o.metadata.namespace]).toEqual([key(o), 'payments']);
  });

  it('sets the image tag compose builds on every container of the product', () => {
    const built = compose().services.api.image as string;
    const containers = rendered
      .filter((o) => o.kind === 'Deployment' && (APPS as readonly string[]).includes(o.metadata.name))
      .flatMap((d) => d.spec.template.spec.containers as Doc[]);
    expect(containers.length).toBeGreaterThanOrEqual(APPS.length);
    for (const c of containers) expect(c.image).toBe(built);
  });
});

/**
 * Debian 12 ships Compose 1.29 (`docker-compose`), whose schema predates the Compose
 * Specification's top-level `name`; that one key is taken out before it renders the rest.
 */
const dockerCompose = has('docker-compose', ['version']);
if (!dockerCompose)
  console.warn(
    'docker-compose config test skipped: no docker-compose on PATH (apt-get install docker-compose to run it)',
  );
(dockerCompose ? describe : describe.skip)('docker-compose config (deploy/compose.yaml)', () => {
  const source = readFileSync(join(ROOT, 'deploy', 'compose.yaml'), 'utf8');
  const required = [...new Set([...source.matchAll(/\$\{([A-Z0-9_]+):\?/g)].map((m) => m[1]))];
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'compose-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const render = (env: Record<string, string>) => {
    const file = join(dir, 'compose.yaml');
    writeFileSync(file, source.replace(/^name: .*\n/m, ''));
    // The build context is relative to the file: render it from deploy/ itself.
    return spawnSync('docker-compose', ['-f', file, '--project-directory', join(ROOT, 'deploy'), 'config'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH!, ...env },
    });
  };

  it('refuses to render without the passwords and keys it interpolates, naming the first', () => {
    expect(required.length).toBeGreaterThan(0);
    const run = render({});
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/set [A-Z_]+/);
  });

  it('renders with them set: every service, each secret interpolated, no placeholder left', () => {
    const secrets = Object.fromEntries(required.map((name, i) => [name, `value${i}of${name}`]));
    const run = render(secrets);
    if (run.status !== 0) throw new Error(`docker-compose config failed (${run.status}):\n${run.stderr}`);
    const config = parse(run.stdout) as { services: Record<string, { environment?: Record<string, string> }> };
    expect(Object.keys(config.services).sort()).toEqual(Object.keys(compose().services).sort());
    expect(run.stdout).not.toMatch(/\$\{/);
    for (const value of Object.values(secrets)) expect(run.stdout).toContain(value);
    expect(config.services.api.environment?.EVENTSTORE_URL).toContain(secrets.EVENTSTORE_ADMIN_PASSWORD);
  });
});
