import { createHash } from 'node:crypto';
import { approvedEntity, tokenFor } from '../support/fixtures';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';

const HOOK = 'https://hooks.example.com/payments';

/** The subscription API on the default configuration (private networks refused). */
describe('entity webhooks API', () => {
  let t: TestApp;
  let entity: string;
  beforeAll(async () => {
    t = await startTestApp();
    entity = await approvedEntity(t, KEYS.sandbox);
  });
  afterAll(() => t.close());

  const create = (body: Record<string, unknown>, key: string = KEYS.sandbox) =>
    t.http.post('/entity-webhooks').set(bearer(key)).send(body);
  const eventCount = async () => (await t.app.get<EventStore>(EVENT_STORE).readAll({ limit: 100_000 })).length;

  it('creates a webhook: 201, the object, a generated secret shown once', async () => {
    const res = await create({
      entity_id: entity,
      url: HOOK,
      enabled_events: { outflows: ['completed', 'created'] },
      expires_in: 3600,
      description: 'Payouts',
      tags: ['ops'],
    }).expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^whk_[0-9A-HJKMNP-TV-Z]{26}$/),
      object: 'webhook',
      entity_id: entity,
      url: HOOK,
      expires_in: 3600,
      expires_at: res.body.created + 3_600_000,
      enabled_events: { outflows: ['created', 'completed'] },
      description: 'Payouts',
      tags: ['ops'],
      status: 'active',
      disabled_reason: null,
      stats: {
        deliveries_total: 0,
        deliveries_succeeded: 0,
        deliveries_failed: 0,
        last_delivery_at: null,
        last_response_status: null,
      },
      created: expect.any(Number),
      updated: res.body.created,
      secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      signing_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{86}==$/),
    });
    const got = await t.http
      .get(`/entity-webhooks/${res.body.id}`)
      .query({ entity_id: entity })
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(got.body).toEqual({ ...res.body, secret: undefined, signing_secret: undefined });
    expect(got.body).not.toHaveProperty('secret');
    expect(got.body).not.toHaveProperty('signing_secret');
    // Neither the secret nor its digest appears in clear in any event.
    const events = JSON.stringify(await t.app.get<EventStore>(EVENT_STORE).readStream(`webhook-${res.body.id}`));
    expect(events).not.toContain(res.body.secret);
    expect(events).not.toContain(res.body.signing_secret.slice('whsec_'.length));
  });

  it('returns no secret when the caller chose it, but its signing_secret', async () => {
    const res = await create({
      entity_id: entity,
      url: HOOK,
      enabled_events: { all: true },
      secret: 'my-own-secret-123456',
    }).expect(201);
    expect(res.body).not.toHaveProperty('secret');
    expect(res.body.signing_secret).toBe(
      `whsec_${createHash('sha512').update('my-own-secret-123456').digest('base64')}`,
    );
    expect(res.body.enabled_events).toEqual({ all: true });
  });

  it.each([
    [{ url: 'http://hooks.example.com/x' }, 'url'],
    [{ url: 'https://127.0.0.1/x' }, 'url'],
    [{ url: 'https://10.1.2.3/x' }, 'url'],
    [{ url: 'https://[::1]/x' }, 'url'],
    [{ url: 'https://100.64.0.1/x' }, 'url'],
    [{ url: 'https://localhost/x' }, 'url'],
    [{ enabled_events: {} }, 'enabled_events'],
    [{ enabled_events: { funding_sessions: ['created'] } }, 'enabled_events.funding_sessions'],
    [{ enabled_events: { all: false } }, 'enabled_events.all'],
    [{ secret: 'short' }, 'secret'],
    [{ status: 'paused' }, 'status'],
    [{ colour: 'red' }, 'colour'],
  ])('refuses %j with 400 naming the field, and writes nothing', async (over, field) => {
    const before = await eventCount();
    const res = await create({ entity_id: entity, url: HOOK, enabled_events: { all: true }, ...over }).expect(400);
    expect(res.body).toMatchObject({ status: 'error', code: 'validation_error' });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await eventCount()).toBe(before);
  });

  it('needs entity_id with an API key, infers it from a token, and hides other tenants', async () => {
    await create({ url: HOOK, enabled_events: { all: true } }).expect(400);
    await t.http.get('/entity-webhooks').set(bearer(KEYS.sandbox)).expect(400);
    await t.http.get('/webhook-logs').set(bearer(KEYS.sandbox)).expect(400);
    const token = await tokenFor(t, entity, KEYS.sandbox);
    const mine = await create({ url: HOOK, enabled_events: { accounts: ['created'] } }, token).expect(201);
    expect(mine.body.entity_id).toBe(entity);
    const other = await approvedEntity(t, KEYS.sandbox, 'Other');
    const theirs = await create({ entity_id: other, url: HOOK, enabled_events: { all: true } }).expect(201);
    await t.http.get(`/entity-webhooks/${theirs.body.id}`).set(bearer(token)).expect(403);
    await t.http
      .get(`/entity-webhooks/${theirs.body.id}`)
      .query({ entity_id: entity })
      .set(bearer(KEYS.sandbox))
      .expect(404);
    await t.http
      .get(`/entity-webhooks/${mine.body.id}`)
      .query({ entity_id: entity })
      .set(bearer(KEYS.other))
      .expect(404);
    await create({ entity_id: entity, url: HOOK, enabled_events: { all: true } }, KEYS.other).expect(404);
  });

  it('lists style A, newest first, per entity', async () => {
    const e = await approvedEntity(t, KEYS.sandbox, 'Lister');
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await create({ entity_id: e, url: `${HOOK}/${i}`, enabled_events: { all: true } }).expect(201)).body.id,
      );
    await t.settle();
    const page1 = await t.http
      .get('/entity-webhooks')
      .query({ entity_id: e, limit: 2 })
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(page1.body.data.map((w: { id: string }) => w.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.meta.pagination).toEqual({ has_more: true, next_cursor: ids[1] });
    const page2 = await t.http
      .get('/entity-webhooks')
      .query({ entity_id: e, limit: 2, cursor: ids[1] })
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(page2.body.data.map((w: { id: string }) => w.id)).toEqual([ids[0]]);
    expect(page2.body.meta.pagination).toEqual({ has_more: false, next_cursor: null });
  });

  it('updates: replaces enabled_events and tags, recounts expiry, keeps omitted fields', async () => {
    const hook = (
      await create({
        entity_id: entity,
        url: HOOK,
        enabled_events: { all: true },
        tags: ['a'],
        description: 'd',
      }).expect(201)
    ).body;
    const res = await t.http
      .patch(`/entity-webhooks/${hook.id}`)
      .set(bearer(KEYS.sandbox))
      .send({
        entity_id: entity,
        enabled_events: { inflows: ['completed'] },
        tags: ['b', 'c'],
        expires_in: 60,
        status: 'inactive',
        secret: 'a-new-secret-0123456789',
      })
      .expect(200);
    expect(res.body).toMatchObject({
      url: HOOK,
      description: 'd',
      enabled_events: { inflows: ['completed'] },
      tags: ['b', 'c'],
      expires_in: 60,
      status: 'inactive',
    });
    expect(res.body.expires_at).toBe(res.body.updated + 60_000);
    expect(res.body).not.toHaveProperty('secret');
    expect(res.body).not.toHaveProperty('signing_secret');
    await t.http
      .patch(`/entity-webhooks/${hook.id}`)
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: entity, url: 'https://192.168.1.1/x' })
      .expect(400);
  });

  it('deletes permanently: 200 with the decided body, then 404', async () => {
    const hook = (await create({ entity_id: entity, url: HOOK, enabled_events: { all: true } }).expect(201)).body;
    const res = await t.http
      .delete(`/entity-webhooks/${hook.id}`)
      .query({ entity_id: entity })
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(res.body).toEqual({ status: 'success', message: expect.any(String), data: { id: hook.id, deleted: true } });
    await t.http.get(`/entity-webhooks/${hook.id}`).query({ entity_id: entity }).set(bearer(KEYS.sandbox)).expect(404);
    await t.http
      .delete(`/entity-webhooks/${hook.id}`)
      .query({ entity_id: entity })
      .set(bearer(KEYS.sandbox))
      .expect(404);
    await t.settle();
    const list = await t.http
      .get('/entity-webhooks')
      .query({ entity_id: entity, limit: 100 })
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(list.body.data.map((w: { id: string }) => w.id)).not.toContain(hook.id);
  });

  it('accepts test events for valid combinations only', async () => {
    const hook = (await create({ entity_id: entity, url: HOOK, enabled_events: { all: true } }).expect(201)).body;
    const send = (event_group: string, event_name: string) =>
      t.http
        .post('/webhook-tests')
        .set(bearer(KEYS.sandbox))
        .send({ webhook_id: hook.id, entity_id: entity, event_group, event_name });
    for (const [g, n] of [
      ['accounts', 'created'],
      ['account_details', 'created'],
      ['inflows', 'failed'],
      ['outflows', 'refunded'],
      ['entities', 'updated'],
      ['funding_sessions', 'completed'],
      ['payment_intent', 'cancelled'],
    ]) {
      await send(g, n).expect(201);
    }
    for (const [g, n] of [
      ['funding_sessions', 'created'],
      ['accounts', 'deleted'],
      ['cards', 'created'],
      ['transfers', 'created'],
    ]) {
      const res = await send(g, n).expect(400);
      expect(res.body.status).toBe('error');
    }
    const inactive = (
      await create({ entity_id: entity, url: HOOK, enabled_events: { all: true }, status: 'inactive' }).expect(201)
    ).body;
    await t.http
      .post('/webhook-tests')
      .set(bearer(KEYS.sandbox))
      .send({ webhook_id: inactive.id, entity_id: entity, event_group: 'accounts', event_name: 'created' })
      .expect(422);
  });
});
