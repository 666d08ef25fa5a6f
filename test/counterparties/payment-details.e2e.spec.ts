import { approvedEntity, pendingEntity, tokenFor } from '../support/fixtures';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { READ_STORE, type ReadStore } from '@app/platform/read-store/read-store.port';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { openAccount } from '../accounts/accounts-helpers';
import { bankDetail, createCounterparty, PMD_ID } from './helpers';

describe('payment details', () => {
  let t: TestApp;
  let entity: string;
  let cpt: string;
  beforeAll(async () => {
    t = await startTestApp();
    entity = await pendingEntity(t);
    cpt = (await createCounterparty(t, entity)).id;
  });
  afterAll(() => t.close());
  const head = () => t.app.get<EventStore>(EVENT_STORE).headPosition();
  const add = (body: Record<string, unknown>, id = cpt, key: string = KEYS.sandbox) =>
    t.http.post(`/counterparties/${id}/payment-details`).set(bearer(key)).send(body);

  it('adds a bank record (201) in the decided shape', async () => {
    const res = await add(
      bankDetail({ account_number: '123456789', account_name: 'Grace Hopper', scheme: 'aba', code: '021000021' }),
    ).expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(PMD_ID),
      object: 'payment_detail',
      counterparty_id: cpt,
      entity_id: entity,
      payment_method: 'bank-transfer',
      currency: 'USD',
      country: 'US',
      bank: { account_number: '123456789', account_name: 'Grace Hopper', scheme: 'aba', code: '021000021' },
      status: 'active',
      created: expect.any(Number),
      updated: res.body.created,
    });
  });

  it.each([
    ['iban', { scheme: 'iban', code: 'GB82 WEST 1234 5698 7654 32' }, 'GBP', 'GB'],
    ['gb_sort_code', { scheme: 'gb_sort_code', code: '200000', account_number: '55779911' }, 'GBP', 'GB'],
    ['in_ifsc', { scheme: 'in_ifsc', code: 'SBIN0000300', account_number: '00000012345678' }, 'INR', 'IN'],
    ['swift', { scheme: 'swift', code: 'DEUTDEFF', account_number: '0532013000' }, 'EUR', 'DE'],
    [
      'za_national_clearing_code',
      { scheme: 'za_national_clearing_code', code: '632005', account_number: '4057223348' },
      'ZAR',
      'ZA',
    ],
    ['au_bsb', { scheme: 'au_bsb', code: '062000', account_number: '12345678' }, 'AUD', 'AU'],
    ['ca_cpa', { scheme: 'ca_cpa', code: '000300002', account_number: '1234567' }, 'CAD', 'CA'],
    ['cnaps', { scheme: 'cnaps', code: '102100099996', account_number: '6222021234567890' }, 'CNY', 'CN'],
    ['br_codigo', { scheme: 'br_codigo', code: '001', account_number: '12345-6' }, 'BRL', 'BR'],
    ['chips', { scheme: 'chips', code: '000123', account_number: 'ABC123' }, 'USD', 'US'],
  ])('accepts a valid %s record', async (_scheme, bank, currency, country) => {
    const res = await add(bankDetail(bank, currency, country)).expect(201);
    expect(res.body.bank.scheme).toBe(bank.scheme);
  });

  it.each([
    ['bank.code', bankDetail({ scheme: 'aba', code: '021000022', account_number: '123456789' })],
    ['bank.code', bankDetail({ scheme: 'iban', code: 'GB82WEST12345698765431' }, 'GBP', 'GB')],
    ['bank.code', bankDetail({ scheme: 'iban', code: 'GB82WEST123456987654' }, 'GBP', 'GB')],
    ['country', bankDetail({ scheme: 'iban', code: 'GB82WEST12345698765432' }, 'EUR', 'DE')],
    ['bank.code', bankDetail({ scheme: 'in_ifsc', code: 'SBIN1000300', account_number: '1234567890' }, 'INR', 'IN')],
    ['bank.code', bankDetail({ scheme: 'swift', code: 'DEUT1EFF', account_number: '1' }, 'EUR', 'DE')],
    [
      'bank.account_number',
      bankDetail({ scheme: 'gb_sort_code', code: '200000', account_number: '5577991' }, 'GBP', 'GB'),
    ],
    ['bank.account_number', bankDetail({ scheme: 'aba', code: '021000021' })],
    ['bank.scheme', bankDetail({ scheme: 'sepa', code: 'X', account_number: '1' })],
    [
      'momo.phone_number',
      {
        payment_method: 'momo-transfer',
        currency: 'KES',
        country: 'KE',
        momo: { phone_number: '+2547123', provider: 'mpesa' },
      },
    ],
    [
      'momo.phone_number',
      {
        payment_method: 'momo-transfer',
        currency: 'KES',
        country: 'KE',
        momo: { phone_number: '+233241234567', provider: 'mpesa' },
      },
    ],
    [
      'wallet.address',
      {
        payment_method: 'stablecoin-transfer',
        currency: 'USC',
        country: 'US',
        wallet: { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', chain: 'ethereum' },
      },
    ],
    [
      'wallet.address',
      {
        payment_method: 'stablecoin-transfer',
        currency: 'USC',
        country: 'US',
        wallet: { address: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae', chain: 'base' },
      },
    ],
    [
      'wallet.address',
      {
        payment_method: 'stablecoin-transfer',
        currency: 'UST',
        country: 'US',
        wallet: { address: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5D', chain: 'solana' },
      },
    ],
    [
      'currency',
      {
        payment_method: 'stablecoin-transfer',
        currency: 'USD',
        country: 'US',
        wallet: { address: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', chain: 'polygon' },
      },
    ],
    ['wallet', { payment_method: 'stablecoin-transfer', currency: 'USC', country: 'US' }],
    [
      'wallet.address',
      {
        payment_method: 'stablecoin-transfer',
        currency: 'USC',
        country: 'US',
        wallet: { address: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5D0', chain: 'solana' },
      },
    ],
    [
      'bank',
      {
        ...bankDetail({ scheme: 'aba', code: '021000021', account_number: '1234' }),
        payment_method: 'momo-transfer',
        momo: { phone_number: '+12025550143', provider: 'cashapp' },
      },
    ],
    [
      'book.account_id',
      {
        payment_method: 'book-transfer',
        currency: 'USD',
        country: 'US',
        book: { account_id: 'acc_01ARZ3NDEKTSV4RRFFQ69G5FAV' },
      },
    ],
  ])('answers 400 naming %s for a near miss, writing nothing', async (field, body) => {
    const before = await head();
    const res = await add(body as Record<string, unknown>).expect(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await head()).toBe(before);
  });

  it('accepts mobile money in E.164 and wallets on every chain', async () => {
    await add({
      payment_method: 'momo-transfer',
      currency: 'KES',
      country: 'KE',
      momo: { phone_number: '+254712345678', provider: 'mpesa' },
    }).expect(201);
    for (const [chain, address] of [
      ['ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
      ['base', '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359'],
      ['polygon', '0xFB6916095CA1DF60BB79CE92CE3EA74C37C5D359'],
      ['solana', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'],
    ]) {
      await add({
        payment_method: 'stablecoin-transfer',
        currency: 'USC',
        country: 'US',
        wallet: { address, chain },
      }).expect(201);
    }
  });

  it('adds a book record for an account of the organization; another currency is 422 currency_mismatch', async () => {
    const holder = await approvedEntity(t, KEYS.sandbox);
    const account = await openAccount(t, KEYS.sandbox, { entity_id: holder, currency: 'USD' });
    const res = await add({
      payment_method: 'book-transfer',
      currency: 'USD',
      country: 'US',
      book: { account_id: account.id },
    }).expect(201);
    expect(res.body.book).toEqual({ account_id: account.id });
    const mismatch = await add({
      payment_method: 'book-transfer',
      currency: 'EUR',
      country: 'US',
      book: { account_id: account.id },
    }).expect(422);
    expect(mismatch.body.code).toBe('currency_mismatch');
    const foreign = await openAccount(t, KEYS.other, {
      entity_id: await approvedEntity(t, KEYS.other),
      currency: 'USD',
    });
    await add({
      payment_method: 'book-transfer',
      currency: 'USD',
      country: 'US',
      book: { account_id: foreign.id },
    }).expect(400);
  });

  it('lists details per counterparty (style A), and a deactivation marks them inactive in the list model', async () => {
    const own = await createCounterparty(t, entity);
    const first = await add(
      bankDetail({ scheme: 'aba', code: '011000138', account_number: '12345678' }),
      own.id,
    ).expect(201);
    const second = await add(
      {
        payment_method: 'momo-transfer',
        currency: 'GHS',
        country: 'GH',
        momo: { phone_number: '+233241234567', provider: 'mtn' },
      },
      own.id,
    ).expect(201);
    await t.settle();
    const page1 = await t.http
      .get(`/counterparties/${own.id}/payment-details?limit=1`)
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(page1.body.data.map((d: { id: string }) => d.id)).toEqual([second.body.id]);
    expect(page1.body.meta.pagination).toEqual({ has_more: true, next_cursor: second.body.id });
    const page2 = await t.http
      .get(`/counterparties/${own.id}/payment-details?limit=1&cursor=${second.body.id}`)
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(page2.body.data).toEqual([first.body]);
    const readStore = t.app.get<ReadStore>(READ_STORE);
    const organizationId = (await readStore.get<{ id: string; organization_id: string }>(
      'payment_details',
      first.body.id,
    ))!.organization_id;
    expect(await readStore.get('payment_details', first.body.id)).toMatchObject({
      payment_method: 'bank-transfer',
      currency: 'USD',
      country: 'US',
      counterparty_id: own.id,
      counterparty_status: 'active',
      entity_id: entity,
      organization_id: organizationId,
      destination_account_id: null,
    });
    await t.http.post(`/counterparties/${own.id}/deactivate`).set(bearer(KEYS.sandbox)).send({}).expect(200);
    await t.settle();
    for (const id of [first.body.id, second.body.id]) {
      expect(await readStore.get('payment_details', id)).toMatchObject({
        counterparty_status: 'inactive',
        status: 'inactive',
      });
    }
    // And the list answers them inactive, as the document says (the test app checks every answer against it).
    const listed = await t.http.get(`/counterparties/${own.id}/payment-details`).set(bearer(KEYS.sandbox)).expect(200);
    expect(listed.body.data.map((d: { status: string }) => d.status)).toEqual(['inactive', 'inactive']);
    const other = await pendingEntity(t);
    const token = await tokenFor(t, other);
    await t.http.get(`/counterparties/${own.id}/payment-details`).set(bearer(token)).expect(403);
    await t.http.get(`/counterparties/${own.id}/payment-details`).set(bearer(KEYS.other)).expect(404);
  });

  it('refuses details on an inactive counterparty with 422 counterparty_inactive, writing nothing', async () => {
    const gone = await createCounterparty(t, entity);
    await t.http.post(`/counterparties/${gone.id}/deactivate`).set(bearer(KEYS.sandbox)).send({}).expect(200);
    const before = await head();
    const res = await add(bankDetail({ scheme: 'aba', code: '021000021', account_number: '12345678' }), gone.id).expect(
      422,
    );
    expect(res.body.code).toBe('counterparty_inactive');
    expect(await head()).toBe(before);
  });
});
