import { rmSync } from 'node:fs';
import type { TransferIntent } from '@app/domain/transfers';
import { createEventStore, createReadStore } from '@app/platform/adapters';
import { loadConfig } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { READ_MODELS } from '@app/read-models/read-models';
import { runReplay } from '../../apps/replay/src/replay';
import { fixtureDataDir, fixtureEvents } from '../support/fixture-data-dir';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import { TRF_ID, post } from './helpers';

/**
 * A DATA_DIR written before transfer streams were keyed by their reference (the v2 fixture, commit
 * 5f5e421: references reserved in `transfer-reference-…`, transfers in `transfer-<ULID id>`),
 * started on today's code: its transfers keep their ids and still guard their references.
 */
const FIXTURE = 'event-log-v2-before-ledger.jsonl';
const log = fixtureEvents(FIXTURE);
const createdIds = new Set(
  log.filter((e) => e.type === 'TransferCreated').map((e) => (e.data as { transfer: { id: string } }).transfer.id),
);
const older = log
  .filter((e) => e.type === 'TransferReferenceReserved')
  .map((e) => (e.data as { intent: TransferIntent }).intent)
  .find((i) => createdIds.has(i.id) && i.payment_type === 'bank-transfer')!;

describe('transfers of a log written before keyed transfer streams', () => {
  let t: TestApp;
  let dir: string;
  const get = (path: string) => t.http.get(path).set(bearer(KEYS.sandbox));
  const repeat = () =>
    post(t, {
      account_id: older.account_id,
      payment_detail_id: older.payment_detail_id,
      amount: older.amount + 1,
      payment_type: older.payment_type,
      unique_reference: older.unique_reference,
    });

  beforeAll(async () => {
    expect(older).toBeDefined();
    dir = await fixtureDataDir(FIXTURE, 'older-transfers-');
    t = await startTestApp({}, dir);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a repeat of an older reference answers 409 with the older transfer and writes nothing', async () => {
    await t.settle();
    const store = t.app.get<EventStore>(EVENT_STORE);
    const head = await store.headPosition();
    const res = await repeat().expect(409);
    expect(res.body).toMatchObject({
      code: 'duplicate_unique_reference',
      id: older.id,
      amount: older.amount,
      transfer: { id: older.id },
    });
    expect(await store.headPosition()).toBe(head);
  });

  it('the older transfer reads and shows its history by its id', async () => {
    expect((await get(`/transfers/${older.id}?entity_id=${older.entity_id}`).expect(200)).body).toMatchObject({
      id: older.id,
      unique_reference: older.unique_reference,
    });
    const history = (await get(`/transfers/${older.id}/history`).expect(200)).body.data as Array<{
      type: string;
      resource_id: string;
    }>;
    expect(history[0]).toMatchObject({ type: 'TransferCreated', resource_id: older.id });
  });

  it('a new reference on the same account gets a keyed transfer, listed before the older ones, and its repeat answers 409', async () => {
    const body = {
      account_id: older.account_id,
      payment_detail_id: older.payment_detail_id,
      amount: 100,
      payment_type: 'bank-transfer',
      unique_reference: 'after-the-upgrade',
    };
    const created = (await post(t, body).expect(201)).body;
    expect(created.id).toMatch(TRF_ID);
    expect((await post(t, { ...body, amount: 200 }).expect(409)).body).toMatchObject({ id: created.id, amount: 100 });
    await t.settle();
    const listed = (
      await get(`/transfers?entity_id=${older.entity_id}&account_id=${older.account_id}&limit=100`).expect(200)
    ).body.data.map((x: { id: string }) => x.id);
    expect(listed[0]).toBe(created.id);
    expect(listed).toContain(older.id);
  });

  it('the upgraded log, with the new transfer on it, verifies: chains whole, read models equal, ledger balanced', async () => {
    await t.settle();
    const config = loadConfig({ ...process.env, DATA_DIR: dir, EVENTSTORE_URL: '', MONGO_URL: '', KAFKA_BROKERS: '' });
    const [events, readModels] = [createEventStore(config), createReadStore(config)];
    const lines: string[] = [];
    try {
      const status = await runReplay(
        { events, readModels, projections: READ_MODELS, out: (l) => lines.push(l) },
        { verify: true, rebuild: false },
      );
      expect({ status, output: lines.join('\n') }).toMatchObject({
        status: 0,
        output: expect.stringContaining('ledger balances'),
      });
    } finally {
      await Promise.all([events.close(), readModels.close()]);
    }
  });
});
