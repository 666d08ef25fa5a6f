import { CONFIG_VARIABLES, WORKER_ROLES } from '@app/platform/config/platform-config';
import { APPS, compose, hostsOf, kubernetes, runs, startCommand, variablesReadByCode, type AppDeployment } from './manifests';

const ADAPTER_SETTINGS = ['EVENTSTORE_URL', 'MONGO_URL', 'MONGO_DATABASE', 'KAFKA_BROKERS', 'KAFKA_TOPIC_PARTITIONS'];

describe('configuration table', () => {
  it('names exactly the environment variables the code reads', () => {
    const read = variablesReadByCode();
    expect([...read.keys()].sort()).toEqual(Object.keys(CONFIG_VARIABLES).sort());
  });
});

/** The checks both deployment descriptions must pass. */
function describeDeployment(name: string, load: () => { apps: Record<string, AppDeployment>; hosts: Set<string> }): void {
  describe(name, () => {
    const { apps, hosts } = load();

    it('runs every app with the command of its start script', () => {
      expect(Object.keys(apps).sort()).toEqual([...APPS].sort());
      for (const app of APPS) expect([app, apps[app].command]).toEqual([app, startCommand(app)]);
    });

    it('runs one worker deployment per role, named after it, and every role somewhere', () => {
      for (const role of WORKER_ROLES) expect([role, runs(`worker-${role}`, apps[`worker-${role}`].env)]).toEqual([role, [role]]);
      expect(runs('api', apps.api.env)).toEqual(['api']);
      expect(apps.api.env.WORKER_ROLES).toBeUndefined();
    });

    it('sets every variable each app reads', () => {
      for (const app of APPS) {
        const needed = Object.entries(CONFIG_VARIABLES).filter(([, readers]) => readers.some((r) => runs(app, apps[app].env).includes(r))).map(([v]) => v);
        const missing = needed.filter((v) => !(v in apps[app].env));
        expect({ app, missing }).toEqual({ app, missing: [] });
      }
    });

    it('points every app at the same event store, read store and bus, on hosts it defines', () => {
      for (const setting of ADAPTER_SETTINGS) {
        expect(new Set(APPS.map((app) => apps[app].env[setting])).size).toBe(1);
      }
      const env = apps.api.env;
      for (const host of [env.EVENTSTORE_URL, env.MONGO_URL, env.KAFKA_BROKERS].flatMap(hostsOf)) expect(hosts).toContain(host);
      expect(env.MONGO_URL).toMatch(/replicaSet=/);
    });

    it('runs two API replicas, one projector and one publisher, and scales the webhooks and process managers', () => {
      expect(apps.api.replicas).toBe(2);
      expect(apps['worker-projector'].replicas).toBe(1);
      expect(apps['worker-publisher'].replicas).toBe(1);
      expect(apps['worker-webhooks'].replicas).toBeGreaterThanOrEqual(2);
      expect(apps['worker-process-managers'].replicas).toBeGreaterThanOrEqual(2);
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
    expect(mongos.map(([, s]) => s.command.join(' '))).toEqual(Array(3).fill('mongod --replSet rs0 --bind_ip_all'));
    expect(services.kafka.environment.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    for (const name of ['eventstore', 'kafka', ...mongos.map(([n]) => n)]) expect([name, Boolean(services[name].healthcheck?.test)]).toEqual([name, true]);
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
    for (const o of objects) expect(o).toMatchObject({ apiVersion: expect.any(String), kind: expect.any(String), metadata: { name: expect.any(String) } });
    expect(objects.filter((o) => o.kind === 'StatefulSet').map((o) => [o.metadata.name, o.spec.replicas])).toEqual(
      expect.arrayContaining([['eventstore', 1], ['mongo', 3], ['kafka', 1]]),
    );
  });
});
