import { openAccount } from '../accounts/accounts-helpers';
import { account as cardAccount, authorize, virtualCard } from '../cards/helpers';
import { CARD_FEE, card, cardAction, confirm, createIntent, encrypt, publicKeyOf } from '../collections/helpers';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import {
  BANK_USD,
  advance,
  bookTo,
  eventually,
  fund,
  paymentDetail,
  payer,
  post,
  transferBody,
} from '../transfers/helpers';

const TOKEN = 'op_' + 'l'.repeat(40);
const operator = { Authorization: `Bearer ${TOKEN}` };

interface Figures {
  debits_posted: number;
  credits_posted: number;
  debits_pending: number;
  credits_pending: number;
}
interface LedgerAccount extends Figures {
  id: string;
  kind: string;
  currency: string;
}
interface Ledger {
  position: number;
  currencies: Array<Figures & { currency: string }>;
  accounts: LedgerAccount[];
}

describe('GET /ledger and GET /admin/organizations/{id}/ledger (decisions §12)', () => {
  let t: TestApp;
  let organization: string;
  let p: Awaited<ReturnType<typeof payer>>;
  let savings: string;
  let eur: string;
  let merchantAccount: string;
  /** The log position before the first payout. */
  let beforePayout: number;
  let payoutFee: number;
  let done: Ledger;

  const ledgerOf = async (key: string = KEYS.sandbox, query = ''): Promise<Ledger> =>
    (await t.http.get(`/ledger${query}`).set(bearer(key)).expect(200)).body.data;
  const account = (l: Ledger, id: string) => l.accounts.find((a) => a.id === id);

  beforeAll(async () => {
    t = await startTestApp({ PAYMENTS_ADMIN_TOKEN: TOKEN });
    organization = (await t.http.get('/api-keys/current').set(bearer(KEYS.sandbox)).expect(200)).body.organization_id;
    p = await payer(t, 'USD', 200_000);
    const bank = await paymentDetail(t, p.counterparty, BANK_USD);
    beforePayout = (await ledgerOf()).position;

    // A bank payout with its fee: pending, then successful.
    const payout = (await post(t, transferBody(p.account, bank, { amount: 10_000 })).expect(201)).body as {
      id: string;
      fee: number;
    };
    payoutFee = payout.fee;
    expect(payoutFee).toBeGreaterThan(0);
    const pending = await ledgerOf();
    expect(account(pending, p.account)).toMatchObject({ debits_pending: 10_000 + payoutFee, debits_posted: 0 });
    expect(account(pending, 'clearing:bank-transfer:USD')).toMatchObject({
      credits_pending: 10_000,
      credits_posted: 0,
    });
    expect(account(pending, 'fees:USD')).toMatchObject({ credits_pending: payoutFee, credits_posted: 0 });
    const open = account(pending, p.account)!;
    expect((await t.http.get(`/accounts/${p.account}`).set(bearer(KEYS.sandbox)).expect(200)).body.balance).toEqual({
      current: open.credits_posted - open.debits_posted,
      available: open.credits_posted - open.debits_posted - open.debits_pending,
    });
    await advance(t, payout.id, { to: 'processing' }).expect(200);
    await advance(t, payout.id, { to: 'successful' }).expect(200);

    // A failed payout: its pending transaction is voided.
    const failed = (await post(t, transferBody(p.account, bank, { amount: 4_000 })).expect(201)).body as { id: string };
    await advance(t, failed.id, { to: 'failed' }).expect(200);

    // A book transfer to another account of the organization.
    savings = (await openAccount(t, KEYS.sandbox, { entity_id: p.entity, currency: 'USD', display_name: 'Savings' }))
      .id;
    const book = await paymentDetail(t, p.counterparty, bookTo(savings));
    await post(
      t,
      transferBody(p.account, book, { amount: 12_000, payment_type: 'book-transfer' }),
      '/transfers',
    ).expect(201);

    // A card authorization held (capture: false), then captured in part.
    const usdCard = await virtualCard(t, p.account);
    const authorized = (await authorize(t, usdCard.id, { amount: 4_000, capture: false }).expect(201)).body.data;
    expect(authorized.status).toBe('pending');
    expect(account(await ledgerOf(), 'clearing:card:USD')).toMatchObject({ credits_pending: 4_000, credits_posted: 0 });
    await t.http
      .post(`/sandbox/card-transactions/${authorized.id}/capture`)
      .set(bearer(KEYS.sandbox))
      .send({ amount: 3_000 })
      .expect(200);

    // A USD card on a EUR account: FX, 1 000 USD cents → 920 EUR cents at the dataset rate.
    eur = await cardAccount(t, p.entity, 'EUR', 50_000);
    const fxCard = await virtualCard(t, p.account);
    await t.http.patch(`/cards/${fxCard.id}/account`).set(bearer(KEYS.sandbox)).send({ account_id: eur }).expect(200);
    expect((await authorize(t, fxCard.id, { amount: 1_000 }).expect(201)).body.data.fx).toMatchObject({
      account_currency: 'EUR',
      account_amount: 920,
    });

    // A completed collection with its fee, refunded in part.
    merchantAccount = (
      await openAccount(t, KEYS.sandbox, { entity_id: p.entity, currency: 'USD', display_name: 'Shop' })
    ).id;
    const pem = await publicKeyOf(t);
    const intent = await createIntent(t, merchantAccount, { amount: 10_000 });
    const confirmed = await confirm(
      t,
      intent.id,
      cardAction(
        encrypt(pem, card()),
        { return_url: undefined },
        { auth_model: '3ds_disabled', browser_info: undefined },
      ),
    ).expect(201);
    expect(confirmed.body.status).toBe('completed');
    await t.http
      .post(`/payment-intents/${intent.id}/refunds`)
      .set(bearer(KEYS.sandbox))
      .send({ amount: 4_000 })
      .expect(201);

    // The payouts settle and void through the log's process managers.
    done = await eventually(
      () => ledgerOf(),
      (l) =>
        account(l, p.account)?.debits_pending === 0 &&
        account(l, 'clearing:bank-transfer:USD')?.credits_posted === 10_000,
      'both payouts closed in the ledger',
    );
  });
  afterAll(() => t.close());

  it('balances every currency, posted and pending', () => {
    expect(done.currencies.map((c) => c.currency)).toEqual(['EUR', 'USD']);
    for (const c of done.currencies) {
      expect(c.debits_posted).toBe(c.credits_posted);
      expect(c.debits_pending).toBe(c.credits_pending);
    }
    // Each currency's totals are its accounts' sums.
    for (const c of done.currencies) {
      const mine = done.accounts.filter((a) => a.currency === c.currency);
      const sum = (f: keyof Figures) => mine.reduce((s, a) => s + a[f], 0);
      expect({
        debits_posted: sum('debits_posted'),
        credits_posted: sum('credits_posted'),
        debits_pending: sum('debits_pending'),
        credits_pending: sum('credits_pending'),
      }).toEqual({
        debits_posted: c.debits_posted,
        credits_posted: c.credits_posted,
        debits_pending: c.debits_pending,
        credits_pending: c.credits_pending,
      });
    }
  });

  it('sorts currencies by code and accounts by id, with their kinds', () => {
    const ids = done.accounts.map((a) => a.id);
    expect(ids).toEqual([...ids].sort());
    expect(Object.fromEntries(done.accounts.map((a) => [a.id, a.kind]))).toMatchObject({
      [p.account]: 'customer',
      'funding:USD': 'funding',
      'funding:EUR': 'funding',
      'fees:USD': 'fees',
      'fx:USD': 'fx',
      'fx:EUR': 'fx',
      'clearing:bank-transfer:USD': 'clearing',
      'clearing:card:USD': 'clearing',
    });
  });

  it('credits fees:USD with the payout fee and the collection fee; a failed payout leaves nothing', () => {
    expect(account(done, 'fees:USD')).toEqual({
      id: 'fees:USD',
      kind: 'fees',
      currency: 'USD',
      debits_posted: 0,
      credits_posted: payoutFee + CARD_FEE,
      debits_pending: 0,
      credits_pending: 0,
    });
    expect(account(done, 'clearing:bank-transfer:USD')).toMatchObject({
      credits_posted: 10_000,
      debits_posted: 0,
      credits_pending: 0,
    });
  });

  it('posts the captured part of a card authorization, and an FX one through fx:EUR and fx:USD', () => {
    expect(account(done, 'clearing:card:USD')).toMatchObject({ credits_posted: 3_000 + 1_000, credits_pending: 0 });
    expect(account(done, 'fx:EUR')).toMatchObject({ credits_posted: 920, debits_posted: 0 });
    expect(account(done, 'fx:USD')).toMatchObject({ debits_posted: 1_000, credits_posted: 0 });
    expect(account(done, eur)).toMatchObject({ currency: 'EUR', credits_posted: 50_000, debits_posted: 920 });
  });

  it('credits the collection net of its fee and debits the refund', () => {
    expect(account(done, merchantAccount)).toMatchObject({
      credits_posted: 10_000 - CARD_FEE,
      debits_posted: 4_000,
      debits_pending: 0,
    });
    expect(account(done, 'clearing:card-acq:USD')).toMatchObject({ debits_posted: 10_000, credits_posted: 4_000 });
    // A book transfer nets out through its clearing account.
    const book = account(done, 'clearing:book-transfer:USD')!;
    expect(book.debits_posted).toBe(book.credits_posted);
    expect(account(done, savings)).toMatchObject({ credits_posted: 12_000, debits_posted: 0 });
  });

  it('gives every customer account the balance GET /accounts/{id} shows', async () => {
    const customers = done.accounts.filter((a) => a.kind === 'customer');
    expect(customers.map((a) => a.id).sort()).toEqual([p.account, savings, eur, merchantAccount].sort());
    const now = await ledgerOf();
    for (const a of now.accounts.filter((x) => x.kind === 'customer')) {
      const balance = (await t.http.get(`/accounts/${a.id}`).set(bearer(KEYS.sandbox)).expect(200)).body.balance;
      const current = a.credits_posted - a.debits_posted;
      expect({ id: a.id, current, available: current - a.debits_pending }).toEqual({ id: a.id, ...balance });
    }
  });

  it('includes a write as soon as it has answered 2xx', async () => {
    const before = account(await ledgerOf(), savings)!.credits_posted;
    await fund(t, savings, 777, 'USD');
    const after = await ledgerOf();
    expect(account(after, savings)!.credits_posted).toBe(before + 777);
    expect(after.position).toBeGreaterThan(done.position);
  });

  it('as_of position:N before the payout shows none of it; as_of the answered position is that answer', async () => {
    const then = await ledgerOf(KEYS.sandbox, `?as_of=position:${beforePayout}`);
    expect(then.position).toBe(beforePayout);
    expect(account(then, 'clearing:bank-transfer:USD')).toBeUndefined();
    expect(account(then, 'fees:USD')).toBeUndefined();
    expect(account(then, p.account)).toMatchObject({ credits_posted: 200_000, debits_posted: 0, debits_pending: 0 });
    expect(await ledgerOf(KEYS.sandbox, `?as_of=position:${done.position}`)).toEqual(done);
    // Before any event, by ISO date-time; now, by ms.
    expect(await ledgerOf(KEYS.sandbox, '?as_of=2000-01-01T00:00:00Z')).toEqual({
      position: 0,
      currencies: [],
      accounts: [],
    });
    expect((await ledgerOf(KEYS.sandbox, `?as_of=${Date.now()}`)).accounts.map((a) => a.id)).toContain(p.account);
  });

  it('refuses a malformed as_of or an unknown parameter (400)', async () => {
    for (const asOf of ['yesterday', 'position:', 'position:-1', '2024-13-01T00:00:00Z', '2024-01-01', '1.5', '']) {
      const res = await t.http.get('/ledger').query({ as_of: asOf }).set(bearer(KEYS.sandbox)).expect(400);
      expect(res.body).toMatchObject({ status: 'error', code: 'validation_error', errors: [{ field: 'as_of' }] });
    }
    await t.http.get('/ledger?as_of=position:1&as_of=position:2').set(bearer(KEYS.sandbox)).expect(400);
    await t.http.get('/ledger?mode=live').set(bearer(KEYS.sandbox)).expect(400);
  });

  it('shows another organization or mode none of it', async () => {
    const ours = new Set([p.account, savings, eur, merchantAccount]);
    const other = await ledgerOf(KEYS.other);
    expect(other.accounts.filter((a) => ours.has(a.id))).toEqual([]);
    const live = await ledgerOf(KEYS.live);
    expect(live).toMatchObject({ currencies: [], accounts: [] });
    // The other organization's own money is in its own book only.
    const theirs = await payer(t, 'GBP', 5_000, KEYS.other);
    expect(account(await ledgerOf(KEYS.other), theirs.account)).toMatchObject({ credits_posted: 5_000 });
    expect(account(await ledgerOf(), theirs.account)).toBeUndefined();
    expect((await ledgerOf()).currencies.map((c) => c.currency)).toEqual(['EUR', 'USD']);
  });

  it('answers an entity token 403, and no key 401', async () => {
    const token = (
      await t.http.post('/entity-tokens').set(bearer(KEYS.sandbox)).send({ entity_id: p.entity }).expect(201)
    ).body.token;
    expect((await t.http.get('/ledger').set(bearer(token)).expect(403)).body).toMatchObject({ status: 'error' });
    await t.http.get('/ledger').expect(401);
  });

  describe('the operator route', () => {
    const admin = (query: string, auth: Record<string, string> = operator, org = organization) =>
      t.http.get(`/admin/organizations/${org}/ledger${query}`).set(auth);

    it('shows the organization and mode named, as the key of that world sees it', async () => {
      const position = (await ledgerOf()).position;
      const mine = await ledgerOf(KEYS.sandbox, `?as_of=position:${position}`);
      expect((await admin(`?mode=sandbox&as_of=position:${position}`).expect(200)).body).toEqual({ data: mine });
      expect((await admin('?mode=sandbox&as_of=position:' + beforePayout).expect(200)).body.data).toEqual(
        await ledgerOf(KEYS.sandbox, `?as_of=position:${beforePayout}`),
      );
      expect((await admin('?mode=live').expect(200)).body.data).toMatchObject({ currencies: [], accounts: [] });
      const liveOrg = (await t.http.get('/api-keys/current').set(bearer(KEYS.live)).expect(200)).body.organization_id;
      expect((await admin('?mode=sandbox', operator, liveOrg).expect(200)).body.data).toMatchObject({
        currencies: [],
        accounts: [],
      });
    });

    it('needs mode (400), a well-formed as_of and organization id (400), and the operator token (401)', async () => {
      for (const query of ['', '?mode=test', '?mode=sandbox&as_of=soon', '?mode=live&limit=1']) {
        expect((await admin(query).expect(400)).body).toMatchObject({ status: 'error', code: 'validation_error' });
      }
      await admin('?mode=sandbox', operator, 'org_x').expect(400);
      for (const auth of [{}, { Authorization: `Bearer ${TOKEN}x` }, bearer(KEYS.sandbox)]) {
        expect((await admin('?mode=sandbox', auth).expect(401)).body).toMatchObject({
          status: 'error',
          code: 'unauthorized',
        });
      }
    });
  });
});

/**
 * Each API process keeps its own fold of the log; read-your-writes must hold across them (decisions
 * §2). Two apps on one DATA_DIR: two stores with their own connections and writers, two folds.
 */
describe('GET /ledger across two API processes on one log', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({}, a.dataDir);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('includes a write answered by one process in the next read from the other, each fold warm', async () => {
    const p = await payer(a, 'USD', 1_000);
    for (const app of [a, b]) await app.http.get('/ledger').set(bearer(KEYS.sandbox)).expect(200);
    for (let i = 1; i <= 6; i++) {
      const [writer, reader] = i % 2 ? [a, b] : [b, a];
      await fund(writer, p.account, i, 'USD');
      const l: Ledger = (await reader.http.get('/ledger').set(bearer(KEYS.sandbox)).expect(200)).body.data;
      expect(l.accounts.find((x) => x.id === p.account)?.credits_posted).toBe(1_000 + (i * (i + 1)) / 2);
    }
  });
});
