import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { UNKNOWN_ACCOUNT } from '../accounts/accounts-helpers';
import {
  BANK_USD,
  MOMO_KES,
  UNKNOWN_PMD,
  WALLET_USC,
  balanceOf,
  paymentDetail,
  payer,
  post,
  statement,
  transferBody,
} from './helpers';

describe('transfers: every refusal of the spec and decisions', () => {
  let t: TestApp;
  let p: Awaited<ReturnType<typeof payer>>;
  let bank: string;
  beforeAll(async () => {
    t = await startTestApp();
    p = await payer(t, 'USD', 20_000);
    bank = await paymentDetail(t, p.counterparty, BANK_USD);
  });
  afterAll(() => t.close());

  /** Refusals write nothing: no hold, no transfer, no reservation. */
  const logHead = () => t.app.get<EventStore>(EVENT_STORE).headPosition();
  async function refusedWithoutWriting(
    body: Record<string, unknown>,
    status: number,
    code: string,
    path: '/transfer' | '/transfers' = '/transfer',
    key: string = KEYS.sandbox,
  ) {
    const before = await logHead();
    const res = await post(t, body, path, key).expect(status);
    expect(res.body).toMatchObject({ status: 'error', code, message: expect.any(String), errors: expect.any(Array) });
    expect(await logHead()).toBe(before);
    return res.body;
  }

  it.each([
    [{ amount: undefined }, 'amount'],
    [{ amount: 0 }, 'amount'],
    [{ amount: 10.5 }, 'amount'],
    [{ amount: '100' }, 'amount'],
    [{ payment_type: 'wire' }, 'payment_type'],
    [{ description: 'x'.repeat(101) }, 'description'],
    [{ unique_reference: undefined }, 'unique_reference'],
    [{ unique_reference: 'r'.repeat(65) }, 'unique_reference'],
    [{ metadata: { n: 1 } }, 'metadata'],
    [{ account_id: 'nope' }, 'account_id'],
    [{ payment_detail_id: undefined }, 'payment_detail_id'],
    [{ surprise: true }, 'surprise'],
  ])('answers 422 validation_error naming the field for %p', async (over, field) => {
    const body = await refusedWithoutWriting(transferBody(p.account, bank, over), 422, 'validation_error');
    expect(body.errors[0].field).toBe(field);
  });

  it('accepts the limits exactly: description of 100 and reference of 64 characters', async () => {
    await post(
      t,
      transferBody(p.account, bank, { amount: 1, description: 'd'.repeat(100), unique_reference: 'r'.repeat(64) }),
    ).expect(201);
  });

  it('answers 400 invalid_json for a body that is not JSON', async () => {
    await t.http
      .post('/transfer')
      .set(bearer(KEYS.sandbox))
      .set('content-type', 'application/json')
      .send('{"amount":')
      .expect(400);
  });

  it('answers 404 for an unknown account, or one of another organization', async () => {
    await refusedWithoutWriting(transferBody(UNKNOWN_ACCOUNT, bank), 404, 'account_not_found');
    await refusedWithoutWriting(transferBody(p.account, bank), 404, 'account_not_found', '/transfer', KEYS.other);
  });

  it('answers 404 for an unknown payment detail, or one of another organization', async () => {
    await refusedWithoutWriting(transferBody(p.account, UNKNOWN_PMD), 404, 'payment_detail_not_found');
    const other = await payer(t, 'USD', 1_000, KEYS.other);
    const foreign = await paymentDetail(t, other.counterparty, BANK_USD, KEYS.other);
    await refusedWithoutWriting(transferBody(p.account, foreign), 404, 'payment_detail_not_found');
  });

  it('answers 422 insufficient_funds when amount + fee exceeds available, and records nothing', async () => {
    const before = await balanceOf(t, p.account);
    await refusedWithoutWriting(transferBody(p.account, bank, { amount: before.available }), 422, 'insufficient_funds');
    expect(await balanceOf(t, p.account)).toEqual(before);
    expect((await statement(t, p.account)).filter((e) => e.type !== 'credit' && e.type !== 'hold')).toEqual([]);
  });

  it('answers 422 payment_method_mismatch when the payment type is not the detail method', async () => {
    const body = await refusedWithoutWriting(
      transferBody(p.account, bank, { payment_type: 'momo-transfer' }),
      422,
      'payment_method_mismatch',
    );
    expect(body.errors[0].field).toBe('payment_type');
  });

  it('answers 422 currency_mismatch when the detail takes another currency than the account holds', async () => {
    const momo = await paymentDetail(t, p.counterparty, MOMO_KES);
    await refusedWithoutWriting(
      transferBody(p.account, momo, { payment_type: 'momo-transfer' }),
      422,
      'currency_mismatch',
    );
  });

  it('answers 422 currency_mismatch for a stablecoin transfer from a fiat account', async () => {
    const wallet = await paymentDetail(t, p.counterparty, WALLET_USC);
    await refusedWithoutWriting(
      transferBody(p.account, wallet, { payment_type: 'stablecoin-transfer' }),
      422,
      'currency_mismatch',
      '/transfers',
    );
  });

  it('answers 422 counterparty_inactive once the counterparty is deactivated', async () => {
    const q = await payer(t, 'USD', 10_000);
    const detail = await paymentDetail(t, q.counterparty, BANK_USD);
    await t.http
      .post(`/counterparties/${q.counterparty}/deactivate`)
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: q.entity })
      .expect(200);
    await refusedWithoutWriting(transferBody(q.account, detail), 422, 'counterparty_inactive');
  });

  it('answers 422 entity_mismatch for a payment detail of another entity of the organization', async () => {
    const q = await payer(t, 'USD', 0);
    const theirs = await paymentDetail(t, q.counterparty, BANK_USD);
    await refusedWithoutWriting(transferBody(p.account, theirs), 422, 'entity_mismatch');
  });

  it('answers 403 when an entity token spends another entity account', async () => {
    const q = await payer(t, 'USD', 0);
    const token = (
      await t.http.post('/entity-tokens').set(bearer(KEYS.sandbox)).send({ entity_id: q.entity }).expect(201)
    ).body.token;
    await refusedWithoutWriting(transferBody(p.account, bank), 403, 'forbidden', '/transfer', token);
  });

  it('answers 409 with the original transfer in the body for a repeated unique_reference, even when the repeat differs', async () => {
    const first = await post(t, transferBody(p.account, bank, { amount: 700, unique_reference: 'dup-1' })).expect(201);
    const before = await balanceOf(t, p.account);
    const head = await logHead();
    const again = await post(t, transferBody(p.account, bank, { amount: 999_999, unique_reference: 'dup-1' })).expect(
      409,
    );
    const { status: ownStatus, ...fields } = first.body;
    expect(again.body).toEqual({
      ...fields,
      status: 'error',
      code: 'duplicate_unique_reference',
      message: expect.any(String),
      errors: [{ field: 'unique_reference', message: expect.any(String) }],
      transfer: first.body,
    });
    expect(ownStatus).toBe('pending');
    expect(await logHead()).toBe(head);
    expect(await balanceOf(t, p.account)).toEqual(before);
  });

  it('lets the same reference be used on another account', async () => {
    const q = await payer(t, 'USD', 5_000);
    const detail = await paymentDetail(t, q.counterparty, BANK_USD);
    await post(t, transferBody(p.account, bank, { amount: 10, unique_reference: 'shared-ref' })).expect(201);
    await post(t, transferBody(q.account, detail, { amount: 10, unique_reference: 'shared-ref' })).expect(201);
  });

  it('lets a reference refused for insufficient funds be used again once funded', async () => {
    const q = await payer(t, 'USD', 1_000);
    const detail = await paymentDetail(t, q.counterparty, BANK_USD);
    await post(t, transferBody(q.account, detail, { amount: 5_000, unique_reference: 'retry-me' })).expect(422);
    await t.http
      .post(`/sandbox/accounts/${q.account}/fund`)
      .set(bearer(KEYS.sandbox))
      .send({ amount: 10_000, currency: 'USD' })
      .expect(201);
    await post(t, transferBody(q.account, detail, { amount: 5_000, unique_reference: 'retry-me' })).expect(201);
  });
});
