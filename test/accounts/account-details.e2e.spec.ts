import { approvedEntity, tokenFor } from '../support/fixtures';
import { isValidIBAN } from 'ibantools';
import { isValidNuban } from '@app/domain/accounts/account-numbers';
import { RAILS } from '@app/domain/accounts';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { UNKNOWN_ACCOUNT, openAccount } from './accounts-helpers';

describe('account details', () => {
  let t: TestApp;
  let entity: string;
  beforeAll(async () => {
    t = await startTestApp();
    entity = await approvedEntity(t, KEYS.sandbox);
  });
  afterAll(() => t.close());

  const issue = (body: Record<string, unknown>, key: string = KEYS.sandbox) =>
    t.http.post('/account-details').set(bearer(key)).send(body);
  const head = () => t.app.get<EventStore>(EVENT_STORE).headPosition();

  it.each([
    ['USD', 'fiat', 'ach', /^[1-9]\d{11}$/],
    ['GBP', 'fiat', 'faster_payments', /^\d{8}$/],
    ['EUR', 'fiat', 'sepa', /^LT\d{18}$/],
    ['NGN', 'fiat', 'nip', /^\d{10}$/],
    ['USC', 'crypto', 'ethereum', /^0x[0-9a-f]{40}$/],
    ['UST', 'crypto', 'ethereum', /^0x[0-9a-f]{40}$/],
  ])('issues %s coordinates on its default rail', async (currency, asset_type, rail, format) => {
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency });
    const res = await issue({ account_id: account.id, asset_type }).expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^acd_[0-9A-HJKMNP-TV-Z]{26}$/),
      object: 'account_details',
      entity_id: entity,
      account_id: account.id,
      asset_type,
      currency,
      rail,
      account_number: expect.stringMatching(format),
      issuer: RAILS[rail as keyof typeof RAILS].issuer,
      status: 'active',
      created: expect.any(Number),
      updated: res.body.created,
    });
    if (rail === 'sepa') expect(isValidIBAN(res.body.account_number)).toBe(true);
    if (rail === 'nip') expect(isValidNuban(res.body.issuer.code, res.body.account_number)).toBe(true);
  });

  it('returns the existing record with 200 for the same account and rail, and issues other rails', async () => {
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USC' });
    const first = await issue({ account_id: account.id, asset_type: 'crypto' }).expect(201);
    const before = await head();
    const again = await issue({ account_id: account.id, asset_type: 'crypto', rail: 'ethereum' }).expect(200);
    expect(again.body).toEqual(first.body);
    expect(await head()).toBe(before);
    const solana = await issue({ account_id: account.id, asset_type: 'crypto', rail: 'solana' }).expect(201);
    expect(solana.body.account_number).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(solana.body.id).not.toBe(first.body.id);
  });

  it('issues one record when the same rail is requested concurrently', async () => {
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => issue({ account_id: account.id, asset_type: 'fiat', rail: 'wire' })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(7);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    const events = await t.app.get<EventStore>(EVENT_STORE).readStream(`account-${account.id}`);
    expect(events.filter((e) => e.type === 'AccountDetailsIssued')).toHaveLength(1);
  });

  it('refuses an asset type or rail that does not fit the currency with 422, writing nothing', async () => {
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'GBP' });
    const jpy = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'JPY' });
    const before = await head();
    expect((await issue({ account_id: account.id, asset_type: 'crypto' }).expect(422)).body.code).toBe(
      'asset_type_mismatch',
    );
    expect((await issue({ account_id: account.id, asset_type: 'fiat', rail: 'sepa' }).expect(422)).body.code).toBe(
      'rail_not_supported',
    );
    expect((await issue({ account_id: jpy.id, asset_type: 'fiat' }).expect(422)).body.code).toBe('rail_not_supported');
    expect(await head()).toBe(before);
  });

  it.each([
    [{ asset_type: 'fiat' }, 'account_id'],
    [{ account_id: 'acc_123', asset_type: 'fiat' }, 'account_id'],
    [{ account_id: UNKNOWN_ACCOUNT }, 'asset_type'],
    [{ account_id: UNKNOWN_ACCOUNT, asset_type: 'gold' }, 'asset_type'],
    [{ account_id: UNKNOWN_ACCOUNT, asset_type: 'fiat', rail: 'swift' }, 'rail'],
    [{ account_id: UNKNOWN_ACCOUNT, asset_type: 'fiat', bank: 'x' }, 'bank'],
  ])('answers 400 naming the field for %p', async (body, field) => {
    const res = await issue(body).expect(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.errors[0].field).toBe(field);
  });

  it('answers 404 for an unknown account or one of another organization, and 403 for another entity', async () => {
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'NGN' });
    expect((await issue({ account_id: UNKNOWN_ACCOUNT, asset_type: 'fiat' }).expect(404)).body.code).toBe(
      'account_not_found',
    );
    expect((await issue({ account_id: account.id, asset_type: 'fiat' }, KEYS.other).expect(404)).body.code).toBe(
      'account_not_found',
    );
    const stranger = await approvedEntity(t, KEYS.sandbox, 'Stranger');
    const token = await tokenFor(t, stranger, KEYS.sandbox);
    expect((await issue({ account_id: account.id, asset_type: 'fiat' }, token).expect(403)).body.code).toBe(
      'forbidden',
    );
    const own = await tokenFor(t, entity, KEYS.sandbox);
    await issue({ account_id: account.id, asset_type: 'fiat' }, own).expect(201);
    await t.http.post('/account-details').send({ account_id: account.id, asset_type: 'fiat' }).expect(401);
  });

  it('never reads an account-number reservation as an account', async () => {
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' });
    const res = await issue({ account_id: account.id, asset_type: 'fiat' }).expect(201);
    const token = await tokenFor(t, await approvedEntity(t, KEYS.sandbox, 'Prober'), KEYS.sandbox);
    const path = `number-ach-${res.body.account_number}`;
    for (const key of [KEYS.sandbox, token]) {
      expect((await t.http.get(`/accounts/${path}`).set(bearer(key)).expect(404)).body.code).toBe('account_not_found');
      await t.http
        .post(`/sandbox/accounts/${path}/fund`)
        .set(bearer(key))
        .send({ amount: 1, currency: 'USD' })
        .expect(404);
    }
  });
});
