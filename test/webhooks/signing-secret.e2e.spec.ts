import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { openAccount } from '../accounts/accounts-helpers';
import { approvedEntity } from '../support/fixtures';
import { KEYS, bearer, type TestApp } from '../support/test-app';
import { Receiver } from './receiver';
import { eventually, fastWorkerEnv, requireTestCa, startWebhookApp } from './webhooks-helpers';

/** Every file under the app's DATA_DIR (event log, read models, WAL files), as one buffer. */
function everythingOnDisk(dir: string): Buffer {
  const chunks: Buffer[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else chunks.push(readFileSync(path));
    }
  };
  walk(dir);
  return Buffer.concat(chunks);
}

/**
 * decisions §9: the creation response carries `signing_secret` = `whsec_` + base64(SHA-512(secret)),
 * the string a receiver hands a Standard Webhooks library as it is, whether the secret was
 * supplied or generated; no read returns it, and it is stored nowhere in clear.
 */
describe('webhook signing_secret', () => {
  let t: TestApp;
  let receiver: Receiver;
  let restoreEnv: () => void;
  let entity: string;

  beforeAll(async () => {
    requireTestCa();
    restoreEnv = fastWorkerEnv({ WEBHOOK_TIMEOUT_MS: '2000' });
    receiver = await Receiver.start();
    t = await startWebhookApp();
    entity = await approvedEntity(t, KEYS.sandbox, 'Signer');
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    restoreEnv?.();
  });
  afterEach(() => expect(receiver.rejected).toEqual([]));

  const create = (body: Record<string, unknown>) =>
    t.http
      .post('/entity-webhooks')
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: entity, ...body });

  it.each([
    ['generated', '/generated', undefined],
    ['supplied', '/supplied', 'a-secret-the-caller-chose-0123'],
  ])('a %s secret: deliveries verify with the returned signing_secret as it is', async (_kind, path, supplied) => {
    const res = await create({
      url: receiver.url(path),
      enabled_events: { accounts: ['created'] },
      ...(supplied ? { secret: supplied } : {}),
    }).expect(201);
    const signingSecret: string = res.body.signing_secret;
    expect(signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{86}==$/);
    const secret = supplied ?? res.body.secret;
    expect(signingSecret).toBe(`whsec_${createHash('sha512').update(secret, 'utf8').digest('base64')}`);
    if (supplied) expect(res.body).not.toHaveProperty('secret');

    // The receiver verifies every request with new Webhook(signing_secret); so does this test, again.
    receiver.expect(path, signingSecret);
    await t.settle();
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' });
    const got = await eventually(
      () => receiver.on(path),
      (r) => r.length >= 1,
    );
    expect(got.map((r) => r.payload.event)).toEqual(['accounts.created']);
    expect(new Webhook(signingSecret).verify(got[0].body, got[0].headers)).toMatchObject({
      event: 'accounts.created',
      data: { id: account.id },
    });
    // A wrong key is refused, so the check above means something.
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(64, 1).toString('base64')}`).verify(got[0].body, got[0].headers),
    ).toThrow();

    // Returned once: GET, the list and PATCH never carry it.
    const id = res.body.id;
    const got1 = await t.http
      .get(`/entity-webhooks/${id}`)
      .query({ entity_id: entity })
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(got1.body).not.toHaveProperty('signing_secret');
    expect(got1.body).not.toHaveProperty('secret');
    await t.settle();
    const list = await t.http
      .get('/entity-webhooks')
      .query({ entity_id: entity, limit: 100 })
      .set(bearer(KEYS.sandbox))
      .expect(200);
    const listed = list.body.data.find((w: { id: string }) => w.id === id);
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('signing_secret');
    const patched = await t.http
      .patch(`/entity-webhooks/${id}`)
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: entity, description: 'renamed' })
      .expect(200);
    expect(patched.body).not.toHaveProperty('signing_secret');

    // Neither the secret nor the signing key is in clear in the event log or any store on disk.
    const events = JSON.stringify(await t.app.get<EventStore>(EVENT_STORE).readAll({ limit: 100_000 }));
    const key64 = signingSecret.slice('whsec_'.length);
    for (const clear of [secret, key64, Buffer.from(key64, 'base64').toString('hex')])
      expect(events).not.toContain(clear);
    const disk = everythingOnDisk(t.dataDir);
    for (const clear of [secret, key64]) expect(disk.includes(Buffer.from(clear, 'utf8'))).toBe(false);
    expect(disk.includes(Buffer.from(key64, 'base64'))).toBe(false);
  });
});
