import type { AddressInfo } from 'node:net';
import { tokenFor } from '../support/fixtures';
import { bearer, KEYS, type TestApp } from '../support/test-app';
import { advance, BANK_USD, payer, paymentDetail, post, transferBody } from '../transfers/helpers';
import { Receiver } from '../webhooks/receiver';
import { fastWorkerEnv, requireTestCa, startWebhookApp, webhookTo, eventually } from '../webhooks/webhooks-helpers';
import { EventStreamSettings, OpenEventStreams } from '../../apps/api/src/audit/event-stream/open-event-streams';
import { bodiesOf, openStream, type SseConnection } from './sse-client';

/**
 * GET /events/stream (docs/decisions/infrastructure.md, "Dashboard and listen"): the key's
 * organization and mode's public events as Server-Sent Events, each the webhook delivery body
 * (decisions §9), in log order, resumable by position, with heartbeats; nothing of another world.
 */
describe('GET /events/stream', () => {
  let t: TestApp;
  let base: string;
  let receiver: Receiver;
  let restoreEnv: () => void;
  const open: SseConnection[] = [];
  const stream = async (key: string | null, options: { query?: string; lastEventId?: string } = {}) => {
    const connection = await openStream(base, key, options);
    open.push(connection);
    return connection;
  };

  beforeAll(async () => {
    requireTestCa();
    restoreEnv = fastWorkerEnv();
    receiver = await Receiver.start();
    t = await startWebhookApp();
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  }, 60_000);

  afterEach(() => open.splice(0).forEach((c) => c.close()));

  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    restoreEnv?.();
  });

  /** A payout from a funded account, moved to successful; its entity has a webhook for every event. */
  async function payout() {
    const p = await payer(t, 'USD', 100_000);
    const webhook = await webhookTo(t, receiver, `/real-${p.entity}`, {
      entity_id: p.entity,
      enabled_events: { all: true },
    });
    const detail = await paymentDetail(t, p.counterparty, BANK_USD);
    return {
      ...p,
      webhook,
      run: async () => {
        const transfer = (await post(t, transferBody(p.account, detail, { amount: 20_000 })).expect(201)).body
          .id as string;
        await advance(t, transfer, { to: 'processing' }).expect(200);
        await advance(t, transfer, { to: 'successful' }).expect(200);
        return transfer;
      },
    };
  }

  it('streams the public events as they happen: the delivery bodies a webhook receives, in log order', async () => {
    const p = await payout();
    const s = await stream(KEYS.sandbox);
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(s.headers['cache-control']).toBe('no-store, no-transform');
    const [ready] = await s.until((e) => e.length >= 1);
    expect(ready.event).toBe('ready');
    expect(JSON.parse(ready.data)).toMatchObject({
      object: 'event_stream',
      mode: 'sandbox',
      follow: true,
      heartbeat_ms: 15_000,
    });
    expect(ready.lastEventId).toBe(String(JSON.parse(ready.data).after_position));

    const transfer = await p.run();
    await s.until((e) => bodiesOf(e).some((b) => b.event === 'outflows.completed' && b.data.id === transfer));
    const bodies = bodiesOf(s.events);
    const outflows = bodies
      .filter((b) => b.event.startsWith('outflows.'))
      .map((b) => [b.event, b.data.id, b.data.status]);
    expect(outflows).toEqual([
      ['outflows.created', transfer, 'pending'],
      ['outflows.updated', transfer, 'processing'],
      ['outflows.completed', transfer, 'successful'],
    ]);
    // The hold and its settlement change the account's balance: accounts.updated, in between.
    expect(bodies.map((b) => b.event)).toContain('accounts.updated');
    for (const b of bodies) {
      expect(Object.keys(JSON.parse(b.raw))).toEqual(['id', 'event', 'created', 'entity_id', 'data']);
      expect(b.entity_id).toBe(p.entity);
      expect(b.id).toMatch(/^evt_[0-9A-Z]{26}$/);
    }
    // Ids are log positions, increasing; only the last public event of a domain event carries one.
    const positions = s.events.map((e) => Number(e.lastEventId));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));

    // The same body, byte for byte, as the real webhook's delivery of the same event.
    const delivered = await eventually(
      () => receiver.on(`/real-${p.entity}`),
      (r) => r.some((d) => d.payload.event === 'outflows.completed'),
    );
    // (The worker may deliver an event the stream has not handed on yet: wait for each.)
    const streamed = bodiesOf(
      await s.until((e) => delivered.every((d) => bodiesOf(e).some((b) => b.id === d.payload.id))),
    );
    for (const d of delivered) expect(streamed.find((b) => b.id === d.payload.id)?.raw).toBe(d.body);
    expect(delivered.filter((d) => d.payload.event.startsWith('outflows.')).length).toBe(3);
  });

  it('resumes after Last-Event-ID or after_position with nothing missed and nothing repeated', async () => {
    const p = await payout();
    const first = await stream(KEYS.sandbox);
    await first.until((e) => e.length >= 1);
    const transfer = await p.run();
    await first.until((e) => bodiesOf(e).some((b) => b.event === 'outflows.completed' && b.data.id === transfer));
    const all = bodiesOf(first.events);
    const cut = all.findIndex((b) => b.event === 'outflows.created');
    const resumeAt = all[cut].lastEventId;
    expect(resumeAt).toMatch(/^\d+$/);
    // Everything after the first event of the cut's domain event that carries the cut's id.
    // Byte for byte: a resumed stream folds each resource it meets first mid-history to the same state.
    const rest = all
      .filter((b) => Number(b.lastEventId) > Number(resumeAt) || (b.lastEventId === resumeAt && all.indexOf(b) > cut))
      .map((b) => b.raw);

    for (const options of [
      { lastEventId: resumeAt },
      { query: `after_position=${resumeAt}` },
      { lastEventId: resumeAt, query: 'after_position=0' },
    ]) {
      const again = await stream(KEYS.sandbox, options);
      const [ready] = await again.until((e) => e.length >= 1);
      expect(JSON.parse(ready.data).after_position).toBe(Number(resumeAt));
      await again.until((e) => bodiesOf(e).length >= rest.length);
      // The process managers may append more meanwhile (the hold's settlement): those come after.
      expect(
        bodiesOf(again.events)
          .map((b) => b.raw)
          .slice(0, rest.length),
      ).toEqual(rest);
      again.close();
    }
  });

  it('without follow, ends at the head of the log as it was when it opened', async () => {
    const s = await stream(KEYS.sandbox, { query: 'after_position=0&follow=false' });
    await s.ended;
    const names = s.events.map((e) => e.event);
    expect(names[0]).toBe('ready');
    expect(names[names.length - 1]).toBe('end');
    expect(bodiesOf(s.events).length).toBeGreaterThan(5);
    expect(bodiesOf(s.events).every((b) => b.id.startsWith('evt_'))).toBe(true);
  });

  it("another organization's key and the other mode see none of it; heartbeats move their position on", async () => {
    t.app.get(EventStreamSettings).heartbeatMs = 100;
    try {
      const other = await stream(KEYS.other);
      const live = await stream(KEYS.live);
      await other.until((e) => e.length >= 1);
      await live.until((e) => e.length >= 1);
      const p = await payout();
      await p.run();
      const head = Number(
        (await t.http.get(`/accounts/${p.account}/history`).set(bearer(KEYS.sandbox)).expect(200)).body.data.at(-1)
          .position,
      );
      // Heartbeats carry the position past the sandbox world's events without showing any.
      await eventually(
        () => Number(other.parser.lastEventId),
        (position) => position >= head,
      );
      expect(Number(other.parser.lastEventId)).toBeGreaterThanOrEqual(head);
      expect(other.events.map((e) => e.event)).toEqual(['ready']);
      expect(live.events.map((e) => e.event)).toEqual(['ready']);
      expect(other.text()).toContain(': heartbeat');
      for (const key of [KEYS.other, KEYS.live]) {
        const all = await stream(key, { query: 'after_position=0&follow=false' });
        await all.ended;
        expect(all.text()).not.toContain(p.entity);
        expect(all.text()).not.toContain(p.account);
      }
    } finally {
      t.app.get(EventStreamSettings).heartbeatMs = 15_000;
    }
  });

  it('ends its subscription when the client goes away, and on shutdown', async () => {
    const streams = t.app.get(OpenEventStreams);
    // The earlier tests' connections are closed: their streams end too.
    const before = await eventually(
      () => streams.size,
      (n) => n === 0,
    );
    expect(before).toBe(0);
    const s = await stream(KEYS.sandbox);
    await s.until((e) => e.length >= 1);
    expect(streams.size).toBe(before + 1);
    s.close();
    await eventually(
      () => streams.size,
      (n) => n === before,
    );
    expect(streams.size).toBe(before);
    // A stream still open at shutdown is ended by the server (the client resumes elsewhere).
    const last = await stream(KEYS.sandbox);
    await last.until((e) => e.length >= 1);
    await streams.beforeApplicationShutdown();
    await last.ended;
    expect(streams.size).toBe(0);
  });

  it('refuses what it must, with the error envelope', async () => {
    const p = await payer(t, 'USD', 0);
    const cases: [string | null, { query?: string; lastEventId?: string }, number, string][] = [
      [null, {}, 401, 'unauthorized'],
      [await tokenFor(t, p.entity), {}, 403, 'forbidden'],
      [KEYS.sandbox, { lastEventId: 'abc' }, 400, 'validation_error'],
      [KEYS.sandbox, { lastEventId: '-1' }, 400, 'validation_error'],
      [KEYS.sandbox, { query: 'after_position=1e3' }, 400, 'validation_error'],
      [KEYS.sandbox, { query: 'follow=no' }, 400, 'validation_error'],
      [KEYS.sandbox, { query: 'entity_id=x' }, 400, 'validation_error'],
    ];
    for (const [key, options, status, code] of cases) {
      const s = await stream(key, options);
      await s.ended;
      expect([status, s.headers['content-type']]).toEqual([status, expect.stringContaining('application/json')]);
      expect(JSON.parse(s.text())).toMatchObject({
        status: 'error',
        code: expect.any(String),
        errors: expect.any(Array),
      });
      if (code !== 'forbidden' && code !== 'unauthorized') expect(JSON.parse(s.text()).code).toBe(code);
    }
  });
});
