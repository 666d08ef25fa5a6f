import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_VARIABLES, WORKER_ROLES } from '@app/platform/config/platform-config';
import {
  APPS,
  ROOT,
  compose,
  hostsOf,
  kubernetes,
  runs,
  startCommand,
  variablesReadByCode,
  type AppDeployment,
} from './manifests';

const ADAPTER_SETTINGS = ['EVENTSTORE_URL', 'MONGO_URL', 'MONGO_DATABASE', 'KAFKA_BROKERS', 'KAFKA_TOPIC_PARTITIONS'];

describe('configuration table', () => {
  it('names exactly the environment variables the code reads', () => {
    const read = variablesReadByCode();
    expect([...read.keys()].sort()).toEqual(Object.keys(CONFIG_VARIABLES).sort());
  });

  it("is docs/operations.md's Configuration table, row for row", () => {
    const readme = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
    const section = readme.slice(
      readme.indexOf('\n## Configuration\n'),
      readme.indexOf('\n## ', readme.indexOf('\n## Configuration\n') + 5),
    );
    const rows = section.split('\n').filter((line) => /^\| `[A-Z]/.test(line));
    const named = new Set(
      rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1])),
    );
    expect({
      missing: Object.keys(CONFIG_VARIABLES).filter((v) => !named.has(v)),
      unknown: [...named].filter((v) => !(v in CONFIG_VARIABLES)),
    }).toEqual({ missing: [], unknown: [] });
  });
});

/** The checks both deployment descriptions must pass. */
function describeDeployment(
  name: string,
  load: () => { apps: Record<string, AppDeployment>; hosts: Set<string> },
): void {
  describe(name, () => {
    const { apps, hosts } = load();

    it('runs every app with the command of its start script', () => {
      expect(Object.keys(apps).sort()).toEqual([...APPS].sort());
      for (const app of APPS) expect([app, apps[app].command]).toEqual([app, startCommand(app)]);
    });

    it('runs one worker deployment per role, named after it, and every role somewhere', () => {
      for (const role of WORKER_ROLES)
        expect([role, runs(`worker-${role}`, apps[`worker-${role}`].env)]).toEqual([role, [role]]);
      expect(runs('api', apps.api.env)).toEqual(['api']);
      expect(apps.api.env.WORKER_ROLES).toBeUndefined();
    });

    it('sets every variable each app reads', () => {
      for (const app of APPS) {
        const needed = Object.entries(CONFIG_VARIABLES)
          .filter(([, readers]) => readers.some((r) => runs(app, apps[app].env).includes(r)))
          .map(([v]) => v);
        const missing = needed.filter((v) => !(v in apps[app].env));
        expect({ app, missing }).toEqual({ app, missing: [] });
      }
    });

    it('points every app at the same event store, read store and bus, on hosts it defines', () => {
      for (const setting of ADAPTER_SETTINGS) {
        expect(new Set(APPS.map((app) => apps[app].env[setting])).size).toBe(1);
      }
      const env = apps.api.env;
      for (const host of [env.EVENTSTORE_URL, env.MONGO_URL, env.KAFKA_BROKERS].flatMap(hostsOf))
        expect(hosts).toContain(host);
      expect(env.MONGO_URL).toMatch(/replicaSet=/);
    });

    it('runs two API replicas, one projector and one publisher, and scales the webhooks and process managers', () => {
      expect(apps.api.replicas).toBe(2);
      expect(apps['worker-projector'].replicas).toBe(1);
      expect(apps['worker-publisher'].replicas).toBe(1);
      expect(apps['worker-webhooks'].replicas).toBeGreaterThanOrEqual(2);
      expect(apps['worker-process-managers'].replicas).toBeGreaterThanOrEqual(2);
      // The checkpoint writer works under a lease: a second replica would only wait.
      expect(apps['worker-audit'].replicas).toBe(1);
    });

    it('health-checks every app', () => {
      for (const app of APPS) expect([app, apps[app].probed]).toEqual([app, true]);
    });
  });
}

describeDeployment('deploy/compose.yaml', () => {
  const { services, apps } = compose();
  return { apps, hosts: new Set(Object.keys(services)) };
});

describe('deploy/compose.yaml infrastructure', () => {
  const { services } = compose();
  it('has EventStoreDB, a three-member MongoDB replica set and Kafka in KRaft mode, each health-checked', () => {
    expect(services.eventstore.image).toMatch(/^eventstore\/eventstore:/);
    const mongos = Object.entries(services).filter(([, s]) => /^mongo:/.test(s.image ?? ''));
    expect(mongos.map(([, s]) => s.command.join(' '))).toEqual(
      Array(3).fill('mongod --replSet rs0 --bind_ip_all --keyFile /etc/mongo-keyfile'),
    );
    expect(services.kafka.environment.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    for (const name of ['eventstore', 'kafka', ...mongos.map(([n]) => n)])
      expect([name, Boolean(services[name].healthcheck?.test)]).toEqual([name, true]);
  });
});

describeDeployment('deploy/k8s', () => {
  const { objects, apps } = kubernetes();
  // A pod of StatefulSet s behind headless Service s is s-<n>.s; a Service is reached by its name.
  const hosts = new Set<string>(objects.filter((o) => o.kind === 'Service').map((o) => o.metadata.name));
  for (const set of objects.filter((o) => o.kind === 'StatefulSet')) {
    for (let i = 0; i < set.spec.replicas; i++) hosts.add(`${set.metadata.name}-${i}.${set.spec.serviceName}`);
  }
  return { apps, hosts };
});

describe('deploy/k8s kustomization', () => {
  it('lists every manifest file, and every object parses with a kind and a name', () => {
    const { files, resources, objects } = kubernetes();
    expect([...resources].sort()).toEqual([...files].sort());
    for (const o of objects)
      expect(o).toMatchObject({
        apiVersion: expect.any(String),
        kind: expect.any(String),
        metadata: { name: expect.any(String) },
      });
    expect(objects.filter((o) => o.kind === 'StatefulSet').map((o) => [o.metadata.name, o.spec.replicas])).toEqual(
      expect.arrayContaining([
        ['eventstore', 1],
        ['mongo', 3],
        ['kafka', 3],
      ]),
    );
  });
});

/** The image deploy/ builds and runs: package.json's name and version. */
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const IMAGE = `${PACKAGE.name}:${PACKAGE.version}`;

type Doc = Record<string, any>;
const podSpecOf = (o: Doc): Doc =>
  o.kind === 'CronJob' ? o.spec.jobTemplate.spec.template.spec : o.spec.template.spec;
const workloads = (objects: Doc[]) => objects.filter((o) => ['Deployment', 'StatefulSet', 'Job'].includes(o.kind));
const envOf = (container: Doc): Doc[] => container.env ?? [];

describe('deploy/Dockerfile', () => {
  const file = readFileSync(join(ROOT, 'deploy', 'Dockerfile'), 'utf8');
  const stages = file.split(/^(?=FROM )/m).filter((s) => s.startsWith('FROM '));

  it('builds in one stage and runs in another: production dependencies installed there, as the node user', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const runtime = stages[stages.length - 1];
    expect(runtime).toMatch(/npm ci --omit=dev/);
    expect(runtime).not.toMatch(/npm ci(?! --omit=dev)/);
    expect(runtime).toMatch(/^COPY --from=build \/app\/dist dist$/m);
    expect(runtime).toMatch(/^USER node$/m);
    // Build tools never stay in the runtime image.
    expect(runtime).toMatch(/apt-get purge -y python3 make g\+\+/);
  });
});

describe('deploy/compose.yaml operations', () => {
  const { services, apps } = compose();

  it('builds the image every app runs, payments-platform:<version>', () => {
    for (const app of APPS)
      expect([app, services[app].image, services[app].build?.dockerfile]).toEqual([app, IMAGE, 'deploy/Dockerfile']);
  });

  it('health-checks every app on /health/ready and bounds its resources', () => {
    for (const app of APPS) {
      expect([app, services[app].healthcheck.test.join(' ')]).toEqual([app, expect.stringContaining('/health/ready')]);
      expect([app, services[app].deploy?.resources?.limits]).toEqual([
        app,
        { cpus: expect.any(String), memory: expect.any(String) },
      ]);
    }
  });

  it('runs EventStoreDB with TLS and MongoDB with authentication, and the apps connect so', () => {
    const es = services.eventstore.environment;
    expect(es.EVENTSTORE_INSECURE).toBeUndefined();
    expect(es).toMatchObject({
      EVENTSTORE_CERTIFICATE_FILE: expect.any(String),
      EVENTSTORE_CERTIFICATE_PRIVATE_KEY_FILE: expect.any(String),
      EVENTSTORE_TRUSTED_ROOT_CERTIFICATES_PATH: expect.any(String),
    });
    expect(apps.api.env.EVENTSTORE_URL).toMatch(
      /^esdb:\/\/admin:\$\{EVENTSTORE_ADMIN_PASSWORD:\?[^}]*\}@eventstore:2113\?tls=true&tlsCAFile=/,
    );
    for (const name of ['mongo1', 'mongo2', 'mongo3']) {
      expect(services[name].environment).toMatchObject({
        MONGO_INITDB_ROOT_USERNAME: 'root',
        MONGO_INITDB_ROOT_PASSWORD: expect.stringMatching(/^\$\{MONGO_ROOT_PASSWORD/),
      });
    }
    expect(apps.api.env.MONGO_URL).toMatch(/^mongodb:\/\/root:\$\{MONGO_ROOT_PASSWORD:\?[^}]*\}@.*authSource=admin/);
  });

  it("serves the API's /metrics on an internal port, never the published one", () => {
    expect(apps.api.env.METRICS_PORT).toBe('9464');
    expect(services.api.ports.join(' ')).not.toContain('9464');
  });
});

describe('deploy/k8s operations', () => {
  const { objects } = kubernetes();
  const deployments = objects.filter(
    (o) => o.kind === 'Deployment' && (APPS as readonly string[]).includes(o.metadata.name),
  );
  const containerOf = (d: Doc) => podSpecOf(d).containers[0] as Doc;

  it('runs the image compose builds, the tag kustomize sets', () => {
    for (const d of deployments) expect([d.metadata.name, containerOf(d).image]).toEqual([d.metadata.name, IMAGE]);
    const kustomization = readFileSync(join(ROOT, 'deploy', 'k8s', 'kustomization.yaml'), 'utf8');
    expect(kustomization).toMatch(
      new RegExp(`- name: ${PACKAGE.name}\\n\\s+newTag: "${PACKAGE.version.replace(/\./g, '\\.')}"`),
    );
  });

  it('probes liveness on /health/live and readiness on /health/ready', () => {
    for (const d of deployments) {
      const c = containerOf(d);
      expect([
        d.metadata.name,
        c.livenessProbe.httpGet.path,
        c.readinessProbe.httpGet.path,
        c.startupProbe?.httpGet.path,
      ]).toEqual([d.metadata.name, '/health/live', '/health/ready', '/health/live']);
    }
  });

  it("has Prometheus scrape every app's /metrics on a port the pod declares", () => {
    for (const d of deployments) {
      const annotations = d.spec.template.metadata.annotations ?? {};
      expect([d.metadata.name, annotations['prometheus.io/scrape'], annotations['prometheus.io/path']]).toEqual([
        d.metadata.name,
        'true',
        '/metrics',
      ]);
      const c = containerOf(d);
      expect(c.ports.map((p: Doc) => String(p.containerPort))).toContain(annotations['prometheus.io/port']);
      const metricsPort = envOf(c).find((e) => e.name === 'METRICS_PORT')?.value;
      if (d.metadata.name === 'api') expect(annotations['prometheus.io/port']).toBe(metricsPort);
    }
    // The Service exposes the API, not its metrics.
    expect(
      objects.find((o) => o.kind === 'Service' && o.metadata.name === 'api')!.spec.ports.map((p: Doc) => p.targetPort),
    ).toEqual([3000]);
  });

  it('sets requests and limits on every container', () => {
    for (const w of workloads(objects)) {
      const spec = podSpecOf(w);
      for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
        expect([w.metadata.name, c.name, c.resources]).toEqual([
          w.metadata.name,
          c.name,
          {
            requests: { cpu: expect.anything(), memory: expect.any(String) },
            limits: { cpu: expect.anything(), memory: expect.any(String) },
          },
        ]);
      }
    }
  });

  it('has a disruption budget for every workload of several replicas, which never blocks a drain', () => {
    const budgets = objects.filter((o) => o.kind === 'PodDisruptionBudget');
    for (const w of workloads(objects).filter((o) => (o.spec.replicas ?? 1) > 1)) {
      const labels = w.spec.selector.matchLabels as Record<string, string>;
      const budget = budgets.find((b) =>
        Object.entries(b.spec.selector.matchLabels).every(([k, v]) => labels[k] === v),
      );
      expect([w.metadata.name, Boolean(budget)]).toEqual([w.metadata.name, true]);
      const allowed = budget!.spec.maxUnavailable ?? w.spec.replicas - budget!.spec.minAvailable;
      expect([w.metadata.name, allowed]).toEqual([w.metadata.name, expect.any(Number)]);
      expect(allowed).toBeGreaterThanOrEqual(1);
    }
  });

  it("runs the apps as the image's node user, and the shared documents volume is theirs (fsGroup)", () => {
    for (const d of deployments) {
      expect([d.metadata.name, podSpecOf(d).securityContext]).toEqual([
        d.metadata.name,
        expect.objectContaining({ runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000 }),
      ]);
    }
    const api = deployments.find((d) => d.metadata.name === 'api')!;
    expect(podSpecOf(api).volumes.find((v: Doc) => v.name === 'documents').persistentVolumeClaim.claimName).toBe(
      'documents',
    );
    // The checkpoint writer signs into DATA_DIR on the same volume, which the API serves from.
    const audit = deployments.find((d) => d.metadata.name === 'worker-audit')!;
    expect(podSpecOf(audit).volumes.find((v: Doc) => v.name === 'documents').persistentVolumeClaim.claimName).toBe(
      'documents',
    );
    expect(podSpecOf(audit).containers[0].volumeMounts.find((m: Doc) => m.name === 'documents').mountPath).toBe(
      podSpecOf(api).containers[0].volumeMounts.find((m: Doc) => m.name === 'documents').mountPath,
    );
  });

  it('runs EventStoreDB with TLS from a Secret, and MongoDB with authentication, and the apps connect so', () => {
    const es = podSpecOf(objects.find((o) => o.kind === 'StatefulSet' && o.metadata.name === 'eventstore')!);
    const esEnv = Object.fromEntries(envOf(es.containers[0]).map((e) => [e.name, e.value ?? e.valueFrom]));
    expect(esEnv.EVENTSTORE_INSECURE).toBeUndefined();
    expect(esEnv).toMatchObject({
      EVENTSTORE_CERTIFICATE_FILE: expect.any(String),
      EVENTSTORE_CERTIFICATE_PRIVATE_KEY_FILE: expect.any(String),
      EVENTSTORE_TRUSTED_ROOT_CERTIFICATES_PATH: expect.any(String),
    });
    expect(es.volumes.find((v: Doc) => v.name === 'certs').secret.secretName).toBe('eventstore-tls');
    expect(es.containers[0].readinessProbe.httpGet.scheme).toBe('HTTPS');

    const mongo = podSpecOf(objects.find((o) => o.kind === 'StatefulSet' && o.metadata.name === 'mongo')!)
      .containers[0];
    // args, not command: the image's entrypoint creates the root user and adds --auth.
    expect(mongo.command).toBeUndefined();
    expect(mongo.args).toEqual(expect.arrayContaining(['--keyFile']));
    expect(envOf(mongo).find((e) => e.name === 'MONGO_INITDB_ROOT_PASSWORD')!.valueFrom.secretKeyRef).toEqual({
      name: 'payments-secrets',
      key: 'mongo-root-password',
    });

    for (const d of deployments) {
      const env = envOf(containerOf(d));
      expect(env.find((e) => e.name === 'EVENTSTORE_URL')!.value).toMatch(
        /^esdb:\/\/admin:\$\(EVENTSTORE_ADMIN_PASSWORD\)@eventstore:2113\?tls=true&tlsCAFile=/,
      );
      expect(env.find((e) => e.name === 'MONGO_URL')!.value).toMatch(
        /^mongodb:\/\/root:\$\(MONGO_ROOT_PASSWORD\)@.*authSource=admin/,
      );
    }
  });

  it('defines every $(VAR) a container expands earlier in its env (Kubernetes expands only those)', () => {
    for (const w of workloads(objects)) {
      for (const c of [...(podSpecOf(w).initContainers ?? []), ...podSpecOf(w).containers]) {
        const defined = new Set<string>();
        for (const e of envOf(c)) {
          for (const [, name] of String(e.value ?? '').matchAll(/\$\(([A-Z0-9_]+)\)/g))
            expect([w.metadata.name, e.name, name, defined.has(name)]).toEqual([w.metadata.name, e.name, name, true]);
          defined.add(e.name);
        }
        for (const arg of [...(c.command ?? []), ...(c.args ?? [])]) {
          for (const [, name] of String(arg).matchAll(/\$\(([A-Z0-9_]+)\)/g))
            expect([w.metadata.name, name, defined.has(name)]).toEqual([w.metadata.name, name, true]);
        }
      }
    }
  });

  it("creates in docs/operations.md's commands every Secret key the manifests read, the admin token included", () => {
    const referenced = new Set<string>();
    for (const w of workloads(objects)) {
      const spec = podSpecOf(w);
      for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
        for (const e of envOf(c))
          if (e.valueFrom?.secretKeyRef)
            referenced.add(`${e.valueFrom.secretKeyRef.name}/${e.valueFrom.secretKeyRef.key}`);
      }
      for (const v of spec.volumes ?? [])
        for (const item of v.secret?.items ?? []) referenced.add(`${v.secret.secretName}/${item.key}`);
    }
    expect(referenced).toContain('payments-secrets/admin-token');
    const readme = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
    const created = new Set<string>();
    for (const [command] of readme.matchAll(/kubectl create secret generic [\s\S]*?(?=\n(?!\s)|\n\s*\n|$)/g)) {
      const name = /kubectl create secret generic (\S+)/.exec(command)![1];
      for (const [, key] of command.matchAll(/--from-(?:literal|file)=([a-z0-9.-]+)=/g)) created.add(`${name}/${key}`);
    }
    expect([...referenced].filter((r) => !created.has(r))).toEqual([]);
  });

  it('never runs a store insecure', () => {
    for (const file of ['compose.yaml', ...readdirSync(join(ROOT, 'deploy', 'k8s')).map((f) => `k8s/${f}`)]) {
      const text = readFileSync(join(ROOT, 'deploy', file), 'utf8');
      expect([file, /--insecure|EVENTSTORE_INSECURE|tls=false/i.test(text)]).toEqual([file, false]);
    }
  });
});
