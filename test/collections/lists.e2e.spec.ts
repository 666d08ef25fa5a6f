import { tokenFor } from '../support/fixtures';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import { card, cardAction, confirm, createIntent, encrypt, merchant, publicKeyOf, walletAction } from './helpers';

type Page = {
  data: Array<Record<string, any>>;
  pagination: { has_next: boolean; has_previous: boolean; next_cursor: string | null; prev_cursor: string | null };
};

describe('style B lists of payment intents and intent actions (decisions §2)', () => {
  let t: TestApp;
  let a: { entity: string; account: string };
  let b: { entity: string; account: string };
  const intents: string[] = [];
  const actions: string[] = [];
  let between = 0;

  const list = async (
    path: string,
    query: Record<string, string | number> = {},
    key: string = KEYS.sandbox,
  ): Promise<Page> => (await t.http.get(path).query(query).set(bearer(key)).expect(200)).body as Page;

  beforeAll(async () => {
    t = await startTestApp();
    a = await merchant(t);
    b = await merchant(t);
    const pem = await publicKeyOf(t);
    for (let i = 0; i < 4; i++) intents.push((await createIntent(t, a.account, { reference: `a-${i}` })).id);
    // The app's clock moves on (rather than the test sleeping), so what follows is created after `between`.
    between = t.clock.now();
    t.clock.advance(5);
    intents.push((await createIntent(t, b.account, { reference: 'b-0' })).id);
    actions.push((await confirm(t, intents[0], cardAction(encrypt(pem, card()))).expect(201)).body.id);
    actions.push((await confirm(t, intents[4], walletAction()).expect(201)).body.id);
  });
  afterAll(() => t.close());

  it('lists intents newest first with the envelope of decisions §2, right after the writes', async () => {
    const page = await list('/payment-intents');
    expect(page.data.map((i) => i.id)).toEqual([...intents].reverse());
    expect(page.pagination).toEqual({ has_next: false, has_previous: false, next_cursor: null, prev_cursor: null });
  });

  it('filters intents by status, reference, currency, account_id and dates', async () => {
    expect((await list('/payment-intents', { status: 'requires_action' })).data.map((i) => i.id)).toEqual([
      intents[3],
      intents[2],
      intents[1],
    ]);
    expect((await list('/payment-intents', { status: 'processing' })).data.map((i) => i.id)).toEqual([intents[0]]);
    expect((await list('/payment-intents', { reference: 'a-2' })).data.map((i) => i.id)).toEqual([intents[2]]);
    expect((await list('/payment-intents', { account_id: b.account })).data.map((i) => i.id)).toEqual([intents[4]]);
    expect((await list('/payment-intents', { currency: 'EUR' })).data).toEqual([]);
    expect((await list('/payment-intents', { date_from: String(between) })).data.map((i) => i.id)).toEqual([
      intents[4],
    ]);
    expect((await list('/payment-intents', { date_to: new Date(between).toISOString() })).data).toHaveLength(4);
    const offset = new Date(between - 5 * 3_600_000).toISOString().slice(0, 23) + '-05:00';
    expect((await list('/payment-intents', { date_to: offset })).data).toHaveLength(4);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list('/payment-intents', { date_from: today, date_to: today })).data).toHaveLength(5);
  });

  it('pages forwards with next_cursor and back with prev_cursor', async () => {
    const first = await list('/payment-intents', { limit: 2 });
    expect(first.data.map((i) => i.id)).toEqual([intents[4], intents[3]]);
    expect(first.pagination).toMatchObject({ has_next: true, has_previous: false, next_cursor: intents[3] });
    const second = await list('/payment-intents', { limit: 2, next_cursor: first.pagination.next_cursor! });
    expect(second.data.map((i) => i.id)).toEqual([intents[2], intents[1]]);
    expect(second.pagination).toMatchObject({ has_next: true, has_previous: true, prev_cursor: intents[2] });
    const back = await list('/payment-intents', { limit: 2, prev_cursor: second.pagination.prev_cursor! });
    expect(back.data.map((i) => i.id)).toEqual([intents[4], intents[3]]);
  });

  it('lists intent actions with every filter of the spec', async () => {
    expect((await list('/intent-actions')).data.map((x) => x.id)).toEqual([...actions].reverse());
    expect((await list('/intent-actions', { payment_type: 'card-acq' })).data.map((x) => x.id)).toEqual([actions[0]]);
    expect((await list('/intent-actions', { status: 'completed' })).data.map((x) => x.id)).toEqual([actions[1]]);
    expect((await list('/intent-actions', { payment_intent_id: intents[0] })).data.map((x) => x.id)).toEqual([
      actions[0],
    ]);
    expect((await list('/intent-actions', { account_id: b.account })).data.map((x) => x.id)).toEqual([actions[1]]);
    expect((await list('/intent-actions', { reference: 'a-0', currency: 'USD' })).data.map((x) => x.id)).toEqual([
      actions[0],
    ]);
    expect((await list('/intent-actions', { date_to: String(between) })).data).toEqual([]);
    const [shown] = (await list('/intent-actions', { payment_type: 'card-acq' })).data;
    expect(shown.payment_type_data).toEqual({
      auth_model: '3ds_required',
      payment_country: 'GB',
      last_four_digits: '4242',
      card_brand: 'visa',
      card_type: 'credit',
    });
  });

  it('shows an entity token only its entity’s, another mode or organization nothing', async () => {
    const token = await tokenFor(t, b.entity);
    expect((await list('/payment-intents', {}, token)).data.map((i) => i.id)).toEqual([intents[4]]);
    expect((await list('/intent-actions', {}, token)).data.map((x) => x.id)).toEqual([actions[1]]);
    expect((await list('/payment-intents', {}, KEYS.live)).data).toEqual([]);
    expect((await list('/intent-actions', {}, KEYS.other)).data).toEqual([]);
  });

  it.each<[string, Record<string, string>, string]>([
    ['/payment-intents', { limit: '0' }, 'limit'],
    ['/payment-intents', { limit: '1e2' }, 'limit'],
    ['/payment-intents', { next_cursor: 'nope' }, 'next_cursor'],
    ['/payment-intents', { status: 'done' }, 'status'],
    ['/payment-intents', { date_from: 'yesterday' }, 'date_from'],
    ['/payment-intents', { date_to: '2026-13-45' }, 'date_to'],
    ['/payment-intents', { date_from: '2026-02-30' }, 'date_from'],
    ['/intent-actions', { payment_type: 'cash' }, 'payment_type'],
    ['/intent-actions', { prev_cursor: 'x' }, 'prev_cursor'],
    ['/intent-actions', { payment_intent_id: 'pi_1' }, 'payment_intent_id'],
  ])('GET %s refuses %p with 400 naming %s', async (path, query, field) => {
    const res = await t.http.get(path).query(query).set(bearer(KEYS.sandbox)).expect(400);
    expect(res.body.errors[0].field).toBe(field);
  });
});
