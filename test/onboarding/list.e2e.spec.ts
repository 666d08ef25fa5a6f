import { tokenFor } from '../support/fixtures';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { businessBody, createIndividual } from './fixtures';

describe('GET /entities', () => {
  let t: TestApp;
  const ids: { individual: string[]; business: string[]; approved: string[] } = {
    individual: [],
    business: [],
    approved: [],
  };
  beforeAll(async () => {
    t = await startTestApp();
    for (let i = 0; i < 3; i++) ids.individual.push((await createIndividual(t)).id);
    for (let i = 0; i < 2; i++)
      ids.business.push(
        (await t.http.post('/business-entities').set(bearer(KEYS.sandbox)).send(businessBody()).expect(201)).body.id,
      );
    const quick = await t.http
      .post('/entities')
      .set(bearer(KEYS.sandbox))
      .send({ first_name: 'Q', last_name: 'S', email: 'q@example.com', country: 'KE' })
      .expect(201);
    ids.approved.push(quick.body.id);
    await createIndividual(t, KEYS.other);
    await t.settle();
  });
  afterAll(() => t.close());

  const list = (query = '', key: string = KEYS.sandbox) => t.http.get(`/entities${query}`).set(bearer(key));

  it("lists the organization's entities newest first, as the single resource shows them", async () => {
    const res = await list().expect(200);
    const all = [...ids.individual, ...ids.business, ...ids.approved].sort().reverse();
    expect(res.body.data.map((e: { id: string }) => e.id)).toEqual(all);
    expect(res.body.meta).toEqual({ pagination: { has_more: false, next_cursor: null } });
    const single = await t.http.get(`/entities/${ids.business[0]}`).set(bearer(KEYS.sandbox)).expect(200);
    expect(res.body.data.find((e: { id: string }) => e.id === ids.business[0])).toEqual(single.body);
  });

  it('filters by type and status', async () => {
    const businesses = await list('?type=business').expect(200);
    expect(businesses.body.data.map((e: { id: string }) => e.id).sort()).toEqual([...ids.business].sort());
    const approved = await list('?status=approved').expect(200);
    expect(approved.body.data.map((e: { id: string }) => e.id)).toEqual(ids.approved);
    const both = await list('?status=approved&type=business').expect(200);
    expect(both.body.data).toEqual([]);
  });

  it('pages with limit and cursor', async () => {
    const first = await list('?limit=4').expect(200);
    expect(first.body.data).toHaveLength(4);
    expect(first.body.meta.pagination).toEqual({ has_more: true, next_cursor: first.body.data[3].id });
    const second = await list(`?limit=4&cursor=${first.body.meta.pagination.next_cursor}`).expect(200);
    expect(second.body.data).toHaveLength(2);
    expect(second.body.meta.pagination).toEqual({ has_more: false, next_cursor: null });
  });

  it('validates the query', async () => {
    for (const [q, field] of [
      ['type=trust', 'type'],
      ['status=active', 'status'],
      ['limit=0', 'limit'],
      ['cursor=x', 'cursor'],
      ['colour=red', 'colour'],
    ]) {
      const res = await list(`?${q}`).expect(400);
      expect(res.body.errors[0].field).toBe(field);
    }
  });

  it('shows another organization only its own entities', async () => {
    const res = await list('', KEYS.other).expect(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].id).not.toEqual(
      expect.stringMatching(new RegExp([...ids.individual, ...ids.business].join('|'))),
    );
  });

  it('shows an entity token only its own entity', async () => {
    const token = await tokenFor(t, ids.individual[1]);
    const res = await list('', token).expect(200);
    expect(res.body.data.map((e: { id: string }) => e.id)).toEqual([ids.individual[1]]);
  });
});
