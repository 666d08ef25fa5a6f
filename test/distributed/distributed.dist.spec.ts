import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { KafkaMessageBus } from '@app/platform/bus/kafka-message-bus';
import { DOMAIN_EVENTS_TOPIC, type BusSubscription, type ConsumedMessage } from '@app/platform/bus/message-bus.port';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { traceparentOfEvent } from '@app/platform/logging/trace-context';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { WORKER_ROLES } from '@app/platform/config/platform-config';
import {
  eventually,
  killStartedApps,
  randomKey,
  sharedEnvironment,
  startApp,
  startWorker,
  type AppProcess,
} from './processes';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const PDF = Buffer.from('%PDF-1.7\n%%EOF\n');

/**
 * The production shape on one machine, as deploy/ runs it: two API replicas (no reader of the log)
 * and one worker per role (`start:worker` with WORKER_ROLES=projector, publisher, webhooks,
 * process-managers), six OS processes sharing the embedded SQLite log, read models on the
 * Mongo-wire server and the bus on a real Kafka broker. Writes go through one API; lists come
 * back through the other from read models only the projector worker builds; the publisher
 * worker's events arrive on Kafka.
 */
describe('distributed deployment: two APIs and one worker per role', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-dist-'));
  const key = randomKey();
  const env = sharedEnvironment(dataDir, `dist_${Date.now().toString(36)}`, key);
  const auth = { Authorization: `Bearer ${key}` };
  let api: AppProcess;
  let other: AppProcess;
  let workers: AppProcess[] = [];

  beforeAll(async () => {
    const started = await Promise.all([
      startApp('api', env),
      startApp('api', env),
      ...WORKER_ROLES.map((role) => startWorker(role, env)),
    ]);
    [api, other] = started;
    workers = started.slice(2);
  });
  afterAll(async () => {
    for (const app of [api, other, ...workers]) await app?.stop();
    await killStartedApps();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs each role in its own worker, and no reader in the APIs', async () => {
    for (const [i, role] of WORKER_ROLES.entries()) {
      const health = await workers[i].health();
      expect({ role, roles: health.roles, status: health.status }).toEqual({ role, roles: [role], status: 'ok' });
    }
    const managers = (await workers[WORKER_ROLES.indexOf('process-managers')].health()).process_managers as Array<{
      name: string;
      holding: boolean;
    }>;
    expect(managers.map((m) => m.name)).toEqual(
      expect.arrayContaining(['transfer-money', 'transfer-recovery', 'card-money', 'collections-acquirer']),
    );
    expect(managers.every((m) => m.holding)).toBe(true);
    for (const replica of [api, other]) {
      const health = await replica.health();
      expect(health.worker).toBeUndefined();
      expect(health.process_managers).toBeUndefined();
    }
  });

  it('onboards, opens and funds through one API; lists answer through the other from read models a worker built; Kafka has every event in order per stream', async () => {
    const http = request(api.url);
    const reader = request(other.url);
    const created = await http
      .post('/individual-entities')
      .set(auth)
      .send({
        first_name: 'Ada',
        last_name: 'Okafor',
        email: 'ada@example.com',
        date_of_birth: '1990-01-31',
        country_of_residence: 'NG',
      })
      .expect(201);
    const { id: entityId, person_id: personId } = created.body as { id: string; person_id: string };
    for (const [kind, file] of [
      ['identity', PNG],
      ['address', PDF],
    ] as const) {
      await http
        .post('/documents/upload')
        .set(auth)
        .field('key', kind)
        .field('link_to_identity[person_id]', personId)
        .attach('file', file, { filename: `${kind}.bin`, contentType: 'application/octet-stream' })
        .expect(201);
    }
    await http.post('/onboarding-submissions').set(auth).send({ entity_id: entityId }).expect(200);
    const reviewed = await http
      .post(`/sandbox/entities/${entityId}/review`)
      .set(auth)
      .send({ decision: 'approved' })
      .expect(200);
    expect(reviewed.body.status).toBe('approved');
    const account = await http
      .post('/accounts')
      .set(auth)
      .send({ entity_id: entityId, type: 'checking', currency: 'USD', display_name: 'Main' })
      .expect(201);
    const accountId = account.body.id as string;
    for (const amount of [150_000, 2_500]) {
      const res = await http.post(`/sandbox/accounts/${accountId}/fund`).set(auth).send({ amount, currency: 'USD' });
      expect([200, 201]).toContain(res.status);
    }

    // Read-your-writes across processes: the other API waits for the projector worker's checkpoints.
    const entities = (await reader.get('/entities?status=approved').set(auth).expect(200)).body.data as Array<
      Record<string, unknown>
    >;
    expect(entities.map((e) => e.id)).toEqual([entityId]);
    const accounts = (await reader.get(`/accounts?entity_id=${entityId}`).set(auth).expect(200)).body.data as Array<
      Record<string, any>
    >;
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({
      id: accountId,
      entity_id: entityId,
      balance: { available: 152_500, current: 152_500 },
    });

    // The APIs run no projector: they report where the projector worker's stored checkpoints are.
    const head = (await api.health()).log.head as number;
    const projector = workers[WORKER_ROLES.indexOf('projector')];
    await eventually(
      async () => (await projector.health()).log.projected as number,
      (projected) => projected >= head,
      'the projector worker at the log head',
    );
    await eventually(
      async () => (await other.health()).log.projected as number,
      (projected) => projected >= head,
      'the other API reporting the stored position',
    );
    expect((await api.health()).adapters).toEqual({ event_store: 'sqlite', read_store: 'mongodb', bus: 'kafka' });

    await expectLogOnKafka(dataDir);
    await expectReplayVerifies(env);
  });
});

/** `npm run replay -- --verify` (the built entry) against this deployment: the log, the MongoDB read models, the ledger. */
async function expectReplayVerifies(env: Record<string, string>): Promise<void> {
  const child = spawn(
    process.execPath,
    [join(__dirname, '..', '..', 'dist', 'apps', 'replay', 'src', 'main.js'), '--verify'],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const out: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => out.push(c));
  const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const output = Buffer.concat(out).toString();
  expect(output).toContain('OK: chains whole, read models equal the replay, ledger balances');
  expect(output).toMatch(/\| accounts +\| 1 +\| 1 +\| [0-9a-f]{16} \| same/);
  expect(status).toBe(0);
}

/** Every event of this deployment's log arrives on the topic, and each stream's in revision order. */
async function expectLogOnKafka(dataDir: string): Promise<void> {
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  const log = await store.readAll();
  await store.close();
  const streams = new Set(log.map((e) => e.streamId));
  const ids = new Set(log.map((e) => e.id));
  const bus = new KafkaMessageBus({ brokers: process.env.KAFKA_BROKERS!.split(','), clientId: 'dist-test-reader' });
  const messages: ConsumedMessage[] = [];
  let subscription: BusSubscription | null = null;
  try {
    subscription = await bus.subscribe(
      DOMAIN_EVENTS_TOPIC,
      `dist-test-${Date.now().toString(36)}`,
      async (m: ConsumedMessage) => {
        // The topic is shared with other runs on this broker; this run's events are its own.
        if (ids.has(m.headers?.['event-id'] ?? '')) messages.push(m);
      },
      { fromBeginning: true },
    );
    await eventually(
      async () => messages.length,
      (n) => n >= log.length,
      `${log.length} events on ${DOMAIN_EVENTS_TOPIC}`,
    );
  } finally {
    await subscription?.stop();
    await bus.close();
  }
  const received = messages.map((m) => JSON.parse(m.value) as RecordedEvent);
  messages.forEach((m, i) => {
    expect(m.key).toBe(received[i].streamId);
    expect(m.headers).toEqual({
      'event-type': received[i].type,
      'event-id': received[i].id,
      traceparent: traceparentOfEvent(received[i]),
    });
  });
  expect(received).toHaveLength(log.length);
  expect(new Set(received.map((e) => e.id))).toEqual(new Set(log.map((e) => e.id)));
  for (const stream of streams) {
    const arrived = received.filter((e) => e.streamId === stream).map((e) => [e.revision, e.type]);
    const written = log.filter((e) => e.streamId === stream).map((e) => [e.revision, e.type]);
    expect(arrived).toEqual(written);
  }
  const types = log.map((e) => e.type);
  expect(types).toEqual(
    expect.arrayContaining([
      'EntityCreated',
      'DocumentUploaded',
      'OnboardingSubmitted',
      'EntityApproved',
      'AccountOpened',
      'AccountFunded',
    ]),
  );
}
