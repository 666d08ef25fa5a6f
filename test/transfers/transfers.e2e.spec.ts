import { transferStream } from '@app/application/transfers/streams';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { openAccount } from '../accounts/accounts-helpers';
import {
  BANK_USD,
  MOMO_KES,
  TRF_ID,
  WALLET_USC,
  balanceOf,
  bookTo,
  paymentDetail,
  payer,
  post,
  statement,
  transferBody,
} from './helpers';

describe('transfers: creation per payment type, reads and lists', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('creates a bank transfer pending, holding amount + fee: available drops, current does not', async () => {
    const p = await payer(t, 'USD', 50_000);
    const pmd = await paymentDetail(t, p.counterparty, BANK_USD);
    const body = transferBody(p.account, pmd, { amount: 10_000, unique_reference: 'inv-42' });
    const res = await post(t, body).expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(TRF_ID),
      object: 'transfer',
      account_id: p.account,
      entity_id: p.entity,
      counterparty_id: p.counterparty,
      payment_detail_id: pmd,
      direction: 'outflow',
      currency: 'USD',
      amount: 10_000,
      fee: 25, // 25 basis points by default
      status: 'pending',
      status_reason: null,
      payment_type: 'bank-transfer',
      description: 'Invoice 42',
      unique_reference: 'inv-42',
      metadata: { order: '42' },
      created: expect.any(Number),
      updated: res.body.created,
    });
    expect(await balanceOf(t, p.account)).toEqual({ available: 50_000 - 10_025, current: 50_000 });
    const got = await t.http
      .get(`/transfers/${res.body.id}?entity_id=${p.entity}`)
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(got.body).toEqual(res.body);
  });

  it('an id with the right reference key but another ULID (the stream it names holds another transfer) is not found: read, move, history', async () => {
    const p = await payer(t, 'USD', 50_000);
    const pmd = await paymentDetail(t, p.counterparty, BANK_USD);
    const real = (await post(t, transferBody(p.account, pmd, { amount: 1_000 })).expect(201)).body.id as string;
    const forged = `trf_01ARZ3NDEKTSV4RRFFQ69G5FAV${real.slice(-20)}`;
    expect(transferStream(forged)).toBe(transferStream(real));
    expect(
      (await t.http.get(`/transfers/${forged}?entity_id=${p.entity}`).set(bearer(KEYS.sandbox)).expect(404)).body.code,
    ).toBe('transfer_not_found');
    await t.http
      .post(`/sandbox/transfers/${forged}/advance`)
      .set(bearer(KEYS.sandbox))
      .send({ to: 'processing' })
      .expect(404);
    await t.http.get(`/transfers/${forged}/history`).set(bearer(KEYS.sandbox)).expect(404);
    expect(
      (await t.http.get(`/transfers/${real}?entity_id=${p.entity}`).set(bearer(KEYS.sandbox)).expect(200)).body.status,
    ).toBe('pending');
  });

  it('creates a mobile-money transfer through POST /transfer with the momo fee', async () => {
    const p = await payer(t, 'KES', 100_000);
    const pmd = await paymentDetail(t, p.counterparty, MOMO_KES);
    const res = await post(t, transferBody(p.account, pmd, { amount: 20_000, payment_type: 'momo-transfer' })).expect(
      201,
    );
    expect(res.body).toMatchObject({
      payment_type: 'momo-transfer',
      currency: 'KES',
      amount: 20_000,
      fee: 300,
      status: 'pending',
    });
  });

  it('creates a stablecoin transfer through POST /transfers from a USC account to a wallet (6 minor units)', async () => {
    const p = await payer(t, 'USC', 500_000_000);
    const pmd = await paymentDetail(t, p.counterparty, WALLET_USC);
    const res = await post(
      t,
      transferBody(p.account, pmd, { amount: 100_000_000, payment_type: 'stablecoin-transfer' }),
      '/transfers',
    ).expect(201);
    expect(res.body).toMatchObject({
      payment_type: 'stablecoin-transfer',
      currency: 'USC',
      amount: 100_000_000,
      fee: 100_000,
    });
    expect(await balanceOf(t, p.account)).toEqual({ available: 399_900_000, current: 500_000_000 });
  });

  it('settles a book transfer at once into the destination account of the organization', async () => {
    const p = await payer(t, 'USD', 30_000);
    const destination = await openAccount(t, KEYS.sandbox, {
      entity_id: p.entity,
      currency: 'USD',
      display_name: 'Savings',
    });
    const pmd = await paymentDetail(t, p.counterparty, bookTo(destination.id));
    const res = await post(
      t,
      transferBody(p.account, pmd, { amount: 12_000, payment_type: 'book-transfer' }),
      '/transfers',
    ).expect(201);
    // Settled before the answer: the transfer reads successful and both balances already moved.
    expect(res.body).toMatchObject({ status: 'successful', status_reason: null, fee: 0 });
    const done = await t.http
      .get(`/transfers/${res.body.id}?entity_id=${p.entity}`)
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(done.body.status).toBe('successful');
    expect(await balanceOf(t, destination.id)).toEqual({ available: 12_000, current: 12_000 });
    expect(await balanceOf(t, p.account)).toEqual({ available: 18_000, current: 18_000 });
    expect((await statement(t, destination.id)).map((e) => [e.type, e.amount, e.transfer_id])).toEqual([
      ['credit', 12_000, res.body.id],
    ]);
  });

  it('records outflow events carrying the transfer as the API shows it', async () => {
    const p = await payer(t, 'USD', 5_000);
    const pmd = await paymentDetail(t, p.counterparty, BANK_USD);
    const res = await post(t, transferBody(p.account, pmd, { amount: 1_000 })).expect(201);
    const [created] = await t.app.get<EventStore>(EVENT_STORE).readStream(transferStream(res.body.id));
    expect(created.type).toBe('TransferCreated');
    const { object: _o, direction: _d, ...fields } = res.body;
    expect(created.data.transfer).toEqual(fields);
    expect(created.metadata).toMatchObject({ entity_id: p.entity });
  });

  describe('reads and lists', () => {
    let p: Awaited<ReturnType<typeof payer>>;
    let ids: string[];
    beforeAll(async () => {
      p = await payer(t, 'USD', 100_000);
      const pmd = await paymentDetail(t, p.counterparty, BANK_USD);
      ids = [];
      for (let i = 0; i < 3; i++)
        ids.push((await post(t, transferBody(p.account, pmd, { amount: 1_000 + i })).expect(201)).body.id);
      await t.http
        .post(`/sandbox/transfers/${ids[0]}/advance`)
        .set(bearer(KEYS.sandbox))
        .send({ to: 'processing' })
        .expect(200);
      await t.settle();
    });

    it('needs entity_id with an API key (400 naming it), for the list and for one transfer', async () => {
      const list = await t.http.get('/transfers').set(bearer(KEYS.sandbox)).expect(400);
      expect(list.body).toMatchObject({ status: 'error', code: 'validation_error', errors: [{ field: 'entity_id' }] });
      await t.http.get(`/transfers/${ids[0]}`).set(bearer(KEYS.sandbox)).expect(400);
    });

    it('lists newest first with style A pagination, filtered by account and status', async () => {
      const first = await t.http.get(`/transfers?entity_id=${p.entity}&limit=2`).set(bearer(KEYS.sandbox)).expect(200);
      expect(first.body.data.map((x: { id: string }) => x.id)).toEqual([ids[2], ids[1]]);
      expect(first.body.meta.pagination).toEqual({ has_more: true, next_cursor: ids[1] });
      const second = await t.http
        .get(`/transfers?entity_id=${p.entity}&limit=2&cursor=${ids[1]}`)
        .set(bearer(KEYS.sandbox))
        .expect(200);
      expect(second.body).toEqual({
        data: [expect.objectContaining({ id: ids[0], status: 'processing', object: 'transfer' })],
        meta: { pagination: { has_more: false, next_cursor: null } },
      });
      const processing = await t.http
        .get(`/transfers?entity_id=${p.entity}&status=processing&account_id=${p.account}`)
        .set(bearer(KEYS.sandbox))
        .expect(200);
      expect(processing.body.data.map((x: { id: string }) => x.id)).toEqual([ids[0]]);
      await t.http.get(`/transfers?entity_id=${p.entity}&status=done`).set(bearer(KEYS.sandbox)).expect(400);
      await t.http.get(`/transfers?entity_id=${p.entity}&limit=101`).set(bearer(KEYS.sandbox)).expect(400);
    });

    it('infers the entity from an entity token, and refuses another entity with 403', async () => {
      const token = (
        await t.http.post('/entity-tokens').set(bearer(KEYS.sandbox)).send({ entity_id: p.entity }).expect(201)
      ).body.token;
      const mine = await t.http.get('/transfers').set(bearer(token)).expect(200);
      expect(mine.body.data).toHaveLength(3);
      await t.http.get(`/transfers/${ids[0]}`).set(bearer(token)).expect(200);
      const other = await payer(t, 'USD', 0);
      await t.http.get(`/transfers?entity_id=${other.entity}`).set(bearer(token)).expect(403);
    });

    it('answers 404 for an unknown id, another entity named, or another organization', async () => {
      await t.http
        .get(`/transfers/trf_01ARZ3NDEKTSV4RRFFQ69G5FAV?entity_id=${p.entity}`)
        .set(bearer(KEYS.sandbox))
        .expect(404);
      const other = await payer(t, 'USD', 0);
      await t.http.get(`/transfers/${ids[0]}?entity_id=${other.entity}`).set(bearer(KEYS.sandbox)).expect(404);
      const res = await t.http.get(`/transfers/${ids[0]}?entity_id=${p.entity}`).set(bearer(KEYS.other)).expect(404);
      expect(res.body.code).toBe('transfer_not_found');
      const list = await t.http.get(`/transfers?entity_id=${p.entity}`).set(bearer(KEYS.other)).expect(200);
      expect(list.body.data).toEqual([]);
    });

    it('lists every hold on the statement with the balance after it', async () => {
      const entries = await statement(t, p.account);
      expect(entries.map((e) => [e.type, e.amount, e.balance_after])).toEqual([
        ['credit', 100_000, { available: 100_000, current: 100_000 }],
        ['hold', 1_003, { available: 98_997, current: 100_000 }],
        ['hold', 1_004, { available: 97_993, current: 100_000 }],
        ['hold', 1_005, { available: 96_988, current: 100_000 }],
      ]);
      expect(entries[1]).toMatchObject({ transfer_id: ids[0], fee: 3 });
    });
  });
});
