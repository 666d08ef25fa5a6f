import { tokenFor } from '../support/fixtures';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { auditWorkload } from './audit-workload';

jest.setTimeout(60_000);

let t: TestApp;
let w: Awaited<ReturnType<typeof auditWorkload>>;
beforeAll(async () => {
  t = await startTestApp();
  w = await auditWorkload(t);
});
afterAll(() => t.close());

const get = (path: string, key: string = KEYS.sandbox) => t.http.get(path).set(bearer(key));

async function allEvents(query: string, key: string = KEYS.sandbox) {
  const events: Array<Record<string, any>> = [];
  for (let cursor: string | null = null; ;) {
    const res: { body: any } = await get(`/events?limit=100${query}${cursor ? `&cursor=${cursor}` : ''}`, key).expect(
      200,
    );
    events.push(...res.body.data);
    cursor = res.body.meta.pagination.next_cursor;
    if (!cursor) return events;
  }
}

describe('GET /{collection}/{id}/history', () => {
  it('returns every event of the resource oldest first, in the shape of decisions §10, hash-chained', async () => {
    const res = await get(`/transfers/${w.paid}/history`).expect(200);
    const events = res.body.data as Array<Record<string, any>>;
    expect(events.map((e) => e.type)).toEqual(
      ['TransferCreated', 'TransferProcessing', 'TransferSucceeded'].slice(0, events.length),
    );
    expect(events.map((e) => e.revision)).toEqual(events.map((_, i) => i));
    expect(events[0]).toMatchObject({
      object: 'event',
      resource_type: 'transfer',
      resource_id: w.paid,
      entity_id: w.entity,
      id: expect.stringMatching(/^evt_/),
    });
    expect(events[0].metadata).toEqual({
      actor: expect.stringMatching(/^api_key:/),
      request_id: expect.any(String),
      correlation_id: expect.any(String),
      causation_id: expect.any(String),
      schema_version: 1,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(new Set(events.map((e) => e.metadata.hash)).size).toBe(events.length);
    expect(events.every((e, i) => i === 0 || e.position > events[i - 1].position)).toBe(true);
  });

  it('serves every decided collection and answers 404 for another organization, another mode or an unknown id', async () => {
    expect((await get(`/accounts/${w.account}/history`).expect(200)).body.data[0].type).toBe('AccountOpened');
    expect((await get(`/entities/${w.entity}/history`).expect(200)).body.data[0].resource_type).toBe('entity');
    expect((await get(`/counterparties/${w.counterparty}/history`).expect(200)).body.data[0].resource_type).toBe(
      'counterparty',
    );
    await get(`/accounts/${w.account}/history`, KEYS.other).expect(404);
    await get(`/accounts/${w.account}/history`, KEYS.live).expect(404);
    await get('/transfers/trf_01ARZ3NDEKTSV4RRFFQ69G5FAV/history').expect(404);
  });

  it('pages a long history: limit (default 100) and cursor, the pages together the whole history', async () => {
    const whole = (await get(`/accounts/${w.account}/history`).expect(200)).body;
    expect(whole.meta.pagination).toEqual({ has_more: false, next_cursor: null });
    const events = whole.data as Array<Record<string, any>>;
    expect(events.length).toBeGreaterThan(2);
    expect(events.length).toBeLessThanOrEqual(100);
    const paged: Array<Record<string, any>> = [];
    let cursor: string | null = null;
    do {
      const page: {
        data: Array<Record<string, any>>;
        meta: { pagination: { has_more: boolean; next_cursor: string | null } };
      } = (await get(`/accounts/${w.account}/history?limit=2${cursor ? `&cursor=${cursor}` : ''}`).expect(200)).body;
      expect(page.data.length).toBeLessThanOrEqual(2);
      paged.push(...page.data);
      cursor = page.meta.pagination.next_cursor;
      expect(cursor === null).toBe(!page.meta.pagination.has_more);
    } while (cursor);
    expect(paged).toEqual(events);
    // Past the last event: an empty page of a resource that exists, not a 404; bad paging is 400.
    expect(
      (await get(`/accounts/${w.account}/history?cursor=${events.at(-1)!.revision}`).expect(200)).body.data,
    ).toEqual([]);
    await get(`/accounts/${w.account}/history?cursor=${events.at(-1)!.revision}`, KEYS.other).expect(404);
    await get(`/accounts/${w.account}/history?cursor=0`, KEYS.live).expect(404);
    for (const query of ['limit=0', 'limit=101', 'cursor=abc', 'cursor=-1'])
      await get(`/accounts/${w.account}/history?${query}`).expect(400);
  });

  it('refuses entity tokens with 403', async () => {
    const token = await tokenFor(t, w.entity);
    await t.http.get(`/accounts/${w.account}/history`).set(bearer(token)).expect(403);
    await t.http.get('/events').set(bearer(token)).expect(403);
  });
});

describe('GET /events', () => {
  it('lists the organization and mode own resource events oldest first, paged by position', async () => {
    const events = await allEvents('');
    const positions = events.map((e) => e.position as number);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(new Set(positions).size).toBe(positions.length);
    expect(events.some((e) => e.resource_id === w.paid)).toBe(true);
    const small = await get('/events?limit=2').expect(200);
    expect(small.body.data).toHaveLength(2);
    expect(small.body.meta.pagination).toEqual({ has_more: true, next_cursor: String(small.body.data[1].position) });
    expect((await allEvents('', KEYS.other)).some((e) => e.resource_id === w.paid)).toBe(false);
    expect((await allEvents('', KEYS.live)).some((e) => e.resource_id === w.paid)).toBe(false);
  });

  it('filters by type, resource_type, resource_id, entity_id, after_position and dates', async () => {
    const all = await allEvents('');
    const byType = await allEvents('&type=TransferCreated');
    expect(byType.map((e) => e.type)).toEqual(all.filter((e) => e.type === 'TransferCreated').map((e) => e.type));
    expect(byType.length).toBeGreaterThanOrEqual(3);
    expect((await allEvents('&resource_type=account')).every((e) => e.resource_type === 'account')).toBe(true);
    expect((await allEvents(`&resource_id=${w.paid}`)).map((e) => e.revision)).toEqual(
      (await get(`/transfers/${w.paid}/history`)).body.data.map((e: { revision: number }) => e.revision),
    );
    expect((await allEvents(`&entity_id=${w.entity}`)).every((e) => e.entity_id === w.entity)).toBe(true);
    const middle = all[Math.floor(all.length / 2)].position;
    expect((await allEvents(`&after_position=${middle}`)).map((e) => e.position)).toEqual(
      all.filter((e) => e.position > middle).map((e) => e.position),
    );
    const created = all[3].created as number;
    expect((await allEvents(`&date_from=${created}&date_to=${created}`)).every((e) => e.created === created)).toBe(
      true,
    );
    expect(await allEvents('&date_to=2000-01-01')).toEqual([]);
  });

  it('answers 400 on bad filters and cursors', async () => {
    for (const q of [
      'limit=0',
      'limit=1e2',
      'cursor=abc',
      'after_position=-1',
      'resource_type=bank',
      'date_from=yesterday',
      'colour=red',
    ]) {
      const res = await get(`/events?${q}`).expect(400);
      expect(res.body.status).toBe('error');
    }
  });
});
