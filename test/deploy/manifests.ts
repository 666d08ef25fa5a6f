import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import type { AppName } from '@app/platform/config/platform-config';

export const ROOT = join(__dirname, '..', '..');
/** The deployments: the API, and one worker deployment per role. */
export const APPS = [
  'api',
  'worker-projector',
  'worker-publisher',
  'worker-webhooks',
  'worker-process-managers',
  'worker-audit',
] as const;

/** The npm script a deployment runs: the API, or the worker with the roles its WORKER_ROLES names. */
export const scriptOf = (app: string) => (app === 'api' ? 'start:api' : 'start:worker');

/** What a deployment runs, as CONFIG_VARIABLES names it: `api`, or the worker roles of WORKER_ROLES. */
export function runs(app: string, env: Record<string, string>): AppName[] {
  if (app === 'api') return ['api'];
  return (env.WORKER_ROLES ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean) as AppName[];
}

/** Environment variable names the production code reads: `env.NAME` or `env['NAME']` in apps/ and libs/. */
export function variablesReadByCode(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of sourceFiles([join(ROOT, 'apps'), join(ROOT, 'libs')])) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\benv(?:\.|\[['"])([A-Z][A-Z0-9_]*)/g)) {
      found.set(match[1], [...(found.get(match[1]) ?? []), relative(ROOT, file)]);
    }
  }
  return found;
}

function sourceFiles(dirs: string[]): string[] {
  const out: string[] = [];
  for (const dir of dirs) {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (name !== 'testing' && name !== 'node_modules') out.push(...sourceFiles([path]));
      } else if (/\.ts$/.test(name) && !/\.(spec|contract)\.ts$/.test(name)) out.push(path);
    }
  }
  return out;
}

export interface AppDeployment {
  readonly env: Record<string, string>;
  readonly command: readonly string[];
  readonly replicas: number;
  readonly probed: boolean;
}

type Doc = Record<string, any>;

export function compose(): { services: Record<string, Doc>; apps: Record<string, AppDeployment> } {
  const file = parse(readFileSync(join(ROOT, 'deploy', 'compose.yaml'), 'utf8'), { merge: true }) as Doc;
  const services = file.services as Record<string, Doc>;
  const apps: Record<string, AppDeployment> = {};
  for (const name of APPS) {
    const s = services[name];
    if (!s) continue;
    const env = Array.isArray(s.environment)
      ? Object.fromEntries(s.environment.map((e: string) => [e.split('=')[0], e.slice(e.indexOf('=') + 1)]))
      : { ...(s.environment ?? {}) };
    apps[name] = { env, command: s.command, replicas: s.deploy?.replicas ?? 1, probed: Boolean(s.healthcheck?.test) };
  }
  return { services, apps };
}

/** Every Kubernetes object in deploy/k8s, and the files kustomization.yaml lists. */
export function kubernetes(): {
  objects: Doc[];
  files: string[];
  resources: string[];
  apps: Record<string, AppDeployment>;
} {
  const dir = join(ROOT, 'deploy', 'k8s');
  const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml');
  const objects: Doc[] = [];
  for (const f of files) {
    for (const doc of parseAllDocuments(readFileSync(join(dir, f), 'utf8'))) {
      if (doc.errors.length) throw new Error(`${f}: ${doc.errors[0].message}`);
      if (doc.contents) objects.push(doc.toJS() as Doc);
    }
  }
  const resources = (parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Doc).resources as string[];
  const configMaps = new Map(
    objects
      .filter((o) => o.kind === 'ConfigMap')
      .map((o) => [o.metadata.name as string, o.data as Record<string, string>]),
  );
  const apps: Record<string, AppDeployment> = {};
  for (const d of objects.filter(
    (o) => o.kind === 'Deployment' && (APPS as readonly string[]).includes(o.metadata.name),
  )) {
    const [container] = d.spec.template.spec.containers as Doc[];
    const env: Record<string, string> = {};
    for (const from of container.envFrom ?? []) {
      const data = configMaps.get(from.configMapRef?.name);
      if (!data) throw new Error(`${d.metadata.name}: envFrom names a ConfigMap that is not in deploy/k8s`);
      Object.assign(env, data);
    }
    for (const e of container.env ?? []) env[e.name] = e.value ?? `<from ${JSON.stringify(e.valueFrom)}>`;
    apps[d.metadata.name] = {
      env,
      command: container.command,
      replicas: d.spec.replicas ?? 1,
      probed: Boolean(container.readinessProbe && container.livenessProbe),
    };
  }
  return { objects, files, resources, apps };
}

/** The command of the npm script a deployment runs, as an argument list. */
export function startCommand(app: string): string[] {
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  return (scripts[scriptOf(app)] ?? '').split(' ');
}

/**
 * Host names in an adapter setting: esdb://user:pw@h:p?…, mongodb://user:pw@h1:p,h2:p/?…, h1:p,h2:p.
 * Placeholders a deployment fills in (compose's `${VAR:?…}`, Kubernetes' `$(VAR)`) are passwords.
 */
export function hostsOf(value: string): string[] {
  const filled = value.replace(/\$\{[^}]*\}|\$\([^)]*\)/g, 'secret');
  const authority = filled
    .replace(/^[a-z+]+:\/\//, '')
    .split(/[/?]/)[0]
    .replace(/^[^@]*@/, '');
  return authority.split(',').map((h) => h.split(':')[0]);
}
