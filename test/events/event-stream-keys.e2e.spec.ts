import type { AddressInfo } from 'node:net';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import { fund, payer } from '../transfers/helpers';
import { EventStreamSettings } from '../../apps/api/src/audit/event-stream/open-event-streams';
import { bodiesOf, openStream, type SseConnection } from './sse-client';

/**
 * Decisions §10: an open `GET /events/stream` ends once its key is revoked or rotated and sends
 * nothing after it (a revoked key is how a leaked one is contained), and a key holds at most
 * EVENT_STREAMS_PER_KEY (10) streams at once.
 */
describe('GET /events/stream and its key', () => {
  let t: TestApp;
  let base: string;
  const open: SseConnection[] = [];
  const stream = async (key: string, query = '') => {
    const connection = await openStream(base, key, { query });
    open.push(connection);
    return connection;
  };
  /** A new sandbox key of the organization of `by`: its id and secret. */
  const newKey = async (by: string = KEYS.sandbox) => {
    const body = (await t.http.post('/api-keys').set(bearer(by)).send({ name: 'stream' }).expect(201)).body as {
      id: string;
      key: string;
    };
    return { id: body.id, secret: body.key };
  };
  /** Resolves when the server ended the response; fails the test if it never does. */
  const endOf = (s: SseConnection) =>
    Promise.race([
      s.ended.then(() => 'ended'),
      new Promise((resolve) => setTimeout(() => resolve('still open'), 10_000).unref()),
    ]);

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  }, 60_000);

  afterEach(() => open.splice(0).forEach((c) => c.close()));
  afterAll(() => t?.close());

  /** While fundings keep coming, `cut` revokes or rotates the key of one stream; another key's stream is the control. */
  async function endsWhileEventsKeepComing(cut: (keyId: string) => Promise<void>, cutType: string) {
    const key = await newKey();
    const p = await payer(t, 'USD', 0);
    const watched = await stream(key.secret);
    const control = await stream(KEYS.sandbox);
    await Promise.all([watched.until((e) => e.length >= 1), control.until((e) => e.length >= 1)]);
    let funding = true;
    const fundings = (async () => {
      while (funding) await fund(t, p.account, 100, 'USD');
    })();
    try {
      await watched.until((e) =>
        bodiesOf(e).some((b) => b.event === 'inflows.completed' && b.data.account_id === p.account),
      );
      await cut(key.id);
      expect(await endOf(watched)).toBe('ended');
      // The control keeps going: fundings after the cut reach it.
      const cutAt = (
        await t.http.get(`/events?type=${cutType}&limit=100`).set(bearer(KEYS.sandbox)).expect(200)
      ).body.data.find((e: { resource_id: string }) => e.resource_id === key.id).position as number;
      await control.until((e) =>
        bodiesOf(e).some((b) => b.event === 'inflows.completed' && Number(b.lastEventId) > cutAt + 3),
      );
    } finally {
      funding = false;
      await fundings;
    }
    const sent = bodiesOf(watched.events);
    expect(sent.length).toBeGreaterThan(0);
    const cutAt = (
      await t.http.get(`/events?type=${cutType}&limit=100`).set(bearer(KEYS.sandbox)).expect(200)
    ).body.data.find((e: { resource_id: string }) => e.resource_id === key.id).position as number;
    // Nothing of the log after the revocation or rotation went out on the stream, and nothing more at all (no `end`).
    expect(sent.filter((b) => b.lastEventId !== '' && Number(b.lastEventId) > cutAt)).toEqual([]);
    expect(watched.events.map((e) => e.event)).not.toContain('end');
  }

  it('ends when its key is revoked, while events keep coming; another key’s stream goes on', async () => {
    await endsWhileEventsKeepComing(
      async (id) => void (await t.http.delete(`/api-keys/${id}`).set(bearer(KEYS.sandbox)).expect(200)),
      'ApiKeyRevoked',
    );
  });

  it('ends when its key is rotated, while events keep coming; another key’s stream goes on', async () => {
    await endsWhileEventsKeepComing(
      async (id) => void (await t.http.post(`/api-keys/${id}/rotate`).set(bearer(KEYS.sandbox)).expect(200)),
      'ApiKeyRotated',
    );
  });

  it('ends on revocation while it waits for events (nothing of its world happens)', async () => {
    // Another organization: no event of its world comes, only the revocation can end the stream.
    const key = await newKey(KEYS.other);
    const s = await stream(key.secret);
    await s.until((e) => e.length >= 1);
    await t.http.delete(`/api-keys/${key.id}`).set(bearer(KEYS.other)).expect(200);
    expect(await endOf(s)).toBe('ended');
    expect(s.events.map((e) => e.event)).toEqual(['ready']);
  });

  it('holds EVENT_STREAMS_PER_KEY (10) streams per key; one more is 429 rate_limited with Retry-After', async () => {
    expect(t.app.get(EventStreamSettings).perKey).toBe(10);
    const key = await newKey();
    const ten = await Promise.all(Array.from({ length: 10 }, () => stream(key.secret)));
    expect(ten.map((s) => s.status)).toEqual(Array(10).fill(200));
    await Promise.all(ten.map((s) => s.until((e) => e.length >= 1)));

    const eleventh = await stream(key.secret);
    await eleventh.ended;
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers['retry-after']).toBe('1');
    expect(JSON.parse(eleventh.text())).toEqual({
      status: 'error',
      code: 'rate_limited',
      message: expect.stringContaining('10'),
      errors: [],
      retry_after: 1,
      limit_type: 'event_streams',
      current_count: 10,
      limit: 10,
    });
    // Per key: another key of the organization still opens one; a closed stream frees its place.
    expect((await stream(KEYS.sandbox)).status).toBe(200);
    ten[0].close();
    let again: SseConnection | undefined;
    for (let i = 0; i < 200 && again?.status !== 200; i++) {
      if (again) await new Promise((r) => setTimeout(r, 25));
      again = await stream(key.secret);
    }
    expect(again?.status).toBe(200);
  });
});
