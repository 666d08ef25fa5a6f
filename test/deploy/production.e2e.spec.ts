import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ROOT, kubernetes } from './manifests';

type Doc = Record<string, any>;

/**
 * Issue 32 item 9: deploy/k8s as a production team would take it. These checks read the YAML
 * itself (the `yaml` package), so they always run; the same objects rendered by kustomize when
 * kubectl is on PATH (skipped with its reason otherwise).
 */
function checks(objects: () => Doc[]) {
  const find = (kind: string, name: string) => objects().find((o) => o.kind === kind && o.metadata.name === name);
  const envOf = (deployment: string, container = 0): Doc[] =>
    find('Deployment', deployment)?.spec.template.spec.containers[container].env ?? [];

  it('autoscales the API and the webhook workers (HorizontalPodAutoscaler on CPU, at least two replicas)', () => {
    for (const target of ['api', 'worker-webhooks']) {
      const hpa = objects().find((o) => o.kind === 'HorizontalPodAutoscaler' && o.spec.scaleTargetRef.name === target);
      expect(hpa).toMatchObject({
        apiVersion: 'autoscaling/v2',
        spec: {
          scaleTargetRef: { kind: 'Deployment', name: target },
          minReplicas: expect.any(Number),
          maxReplicas: expect.any(Number),
        },
      });
      expect(hpa!.spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(hpa!.spec.maxReplicas).toBeGreaterThan(hpa!.spec.minReplicas);
      expect(hpa!.spec.metrics.map((m: Doc) => m.resource?.name)).toContain('cpu');
    }
  });

  it('denies ingress by default, and lets the API be reached from the ingress controller only', () => {
    const policies = objects().filter((o) => o.kind === 'NetworkPolicy');
    expect(
      policies.find(
        (p) => JSON.stringify(p.spec.podSelector) === '{}' && p.spec.policyTypes.includes('Ingress') && !p.spec.ingress,
      ),
    ).toBeDefined();
    const api = policies.find((p) => p.spec.podSelector.matchLabels?.app === 'api');
    expect(JSON.stringify(api?.spec.ingress)).toContain('ingress-nginx');
    const stores = policies.find((p) => JSON.stringify(p.spec.podSelector).includes('kafka'));
    expect(stores).toBeDefined();
  });

  it('exposes the API through an Ingress with TLS, to the api Service', () => {
    const ingress = objects().find((o) => o.kind === 'Ingress');
    expect(ingress?.spec.tls?.[0]).toMatchObject({ hosts: [expect.any(String)], secretName: expect.any(String) });
    expect(ingress!.spec.rules[0].host).toBe(ingress!.spec.tls[0].hosts[0]);
    expect(ingress!.spec.rules[0].http.paths[0].backend.service.name).toBe('api');
  });

  it('runs Kafka as three brokers, replication 3 with two in sync, TLS only, and every app speaks TLS to it', () => {
    const kafka = find('StatefulSet', 'kafka')!;
    expect(kafka.spec.replicas).toBe(3);
    const env = Object.fromEntries(
      (kafka.spec.template.spec.containers[0].env as Doc[]).map((e) => [e.name, e.value ?? e.valueFrom]),
    );
    expect(env).toMatchObject({
      KAFKA_DEFAULT_REPLICATION_FACTOR: '3',
      KAFKA_MIN_INSYNC_REPLICAS: '2',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '3',
    });
    expect(env.KAFKA_CONTROLLER_QUORUM_VOTERS.split(',')).toHaveLength(3);
    expect(env.KAFKA_LISTENER_SECURITY_PROTOCOL_MAP).not.toMatch(/PLAINTEXT/);
    expect(env.KAFKA_LISTENERS).not.toMatch(/PLAINTEXT/);
    const config = find('ConfigMap', 'payments-platform')!.data as Record<string, string>;
    expect(config.KAFKA_BROKERS.split(',')).toEqual(['kafka-0.kafka:9093', 'kafka-1.kafka:9093', 'kafka-2.kafka:9093']);
    expect(config.KAFKA_TLS_CA_FILE).toBeDefined();
    for (const o of objects().filter((o) => o.kind === 'Deployment')) {
      const mounts = (o.spec.template.spec.containers[0].volumeMounts as Doc[]).map((m) => m.mountPath);
      expect([o.metadata.name, mounts.some((m) => config.KAFKA_TLS_CA_FILE.startsWith(`${m}/`))]).toEqual([
        o.metadata.name,
        true,
      ]);
    }
  });

  it('takes the audit signing key from a Secret, never generated onto a volume', () => {
    const key = envOf('worker-audit').find((e) => e.name === 'AUDIT_SIGNING_KEY');
    expect(key?.valueFrom?.secretKeyRef).toMatchObject({ name: expect.any(String), key: expect.any(String) });
    expect(key?.valueFrom.secretKeyRef.optional).not.toBe(true);
  });
}

describe('deploy/k8s for production (the YAML)', () => {
  checks(() => kubernetes().objects);

  it('has no ReadWriteMany volume without its reason written beside it', () => {
    const dir = join(ROOT, 'deploy', 'k8s');
    for (const file of kubernetes().files) {
      const lines = readFileSync(join(dir, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (!/accessModes:.*ReadWriteMany/.test(line)) return;
        const before = lines.slice(Math.max(0, i - 4), i).join('\n');
        expect([`${file}:${i + 1}`, /#.*\breason\b/i.test(before)]).toEqual([`${file}:${i + 1}`, true]);
      });
    }
  });
});

const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
if (!kubectl)
  console.warn(
    'kustomize rendering of the production checks skipped: no kubectl on PATH (it is not an npm package; install kubectl to run it)',
  );
(kubectl ? describe : describe.skip)('deploy/k8s for production (rendered by kubectl kustomize)', () => {
  let rendered: Doc[] = [];
  beforeAll(() => {
    const run = spawnSync('kubectl', ['kustomize', join(ROOT, 'deploy', 'k8s')], { encoding: 'utf8', timeout: 60_000 });
    if (run.status !== 0) throw new Error(`kubectl kustomize failed (${run.status}):\n${run.stderr}`);
    rendered = parseAllDocuments(run.stdout).map((d) => d.toJS() as Doc);
  });
  checks(() => rendered);
});
