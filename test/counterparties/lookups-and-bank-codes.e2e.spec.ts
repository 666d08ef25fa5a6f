import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';

describe('counterparty lookups and bank codes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  const lookup = (body: Record<string, unknown>, key: string = KEYS.sandbox) =>
    t.http.post('/counterparty-lookups').set(bearer(key)).send(body);

  it('answers 200 in the decided shape, naming the bank from the dataset and the account deterministically', async () => {
    const body = {
      currency: 'USD',
      country: 'USA',
      account_number: '123456789',
      issuer: { code: '011000138', scheme: 'aba' },
    };
    const res = await lookup(body).expect(200);
    expect(res.body).toEqual({
      status: 'success',
      message: expect.any(String),
      data: {
        account_number: '123456789',
        account_name: expect.stringMatching(/^\w+ \w+$/),
        bank_code: '011000138',
        bank_name: 'BANK OF AMERICA, N.A.',
        scheme: 'aba',
        country: 'USA',
        currency: 'USD',
      },
    });
    const again = await lookup(body).expect(200);
    expect(again.body.data.account_name).toBe(res.body.data.account_name);
  });

  it.each([
    [
      'aba (JPMorgan Chase)',
      { currency: 'USD', country: 'USA', account_number: '000123456789', issuer: { code: '021000021', scheme: 'aba' } },
      null,
    ],
    [
      'iban (without account_number)',
      { currency: 'GBP', country: 'GBR', issuer: { code: 'GB82WEST12345698765432', scheme: 'iban' } },
      null,
    ],
    [
      'in_ifsc (State Bank of India)',
      {
        currency: 'INR',
        country: 'IND',
        account_number: '00000012345678',
        issuer: { code: 'SBIN0000300', scheme: 'in_ifsc' },
      },
      'State Bank of India',
    ],
    [
      'swift (Equity Bank Kenya)',
      {
        currency: 'KES',
        country: 'KEN',
        account_number: '0180291234567',
        issuer: { code: 'EQBLKENAXXX', scheme: 'swift' },
      },
      'Equity Bank Limited',
    ],
    [
      'swift (Deutsche Bank)',
      { currency: 'EUR', country: 'DEU', account_number: '0532013000', issuer: { code: 'DEUTDEFF', scheme: 'swift' } },
      null,
    ],
    [
      'za_national_clearing_code (ABSA)',
      {
        currency: 'ZAR',
        country: 'ZAF',
        account_number: '4057223348',
        issuer: { code: '632005', scheme: 'za_national_clearing_code' },
      },
      'ABSA',
    ],
    [
      'gb_sort_code',
      {
        currency: 'GBP',
        country: 'GBR',
        account_number: '31926819',
        issuer: { code: '601613', scheme: 'gb_sort_code' },
      },
      null,
    ],
    [
      'au_bsb',
      { currency: 'AUD', country: 'AUS', account_number: '12345678', issuer: { code: '062000', scheme: 'au_bsb' } },
      null,
    ],
    [
      'br_codigo (Banco do Brasil)',
      { currency: 'BRL', country: 'BRA', account_number: '12345-6', issuer: { code: '001', scheme: 'br_codigo' } },
      null,
    ],
    [
      'ca_cpa',
      { currency: 'CAD', country: 'CAN', account_number: '1234567', issuer: { code: '000300002', scheme: 'ca_cpa' } },
      null,
    ],
    [
      'chips',
      { currency: 'USD', country: 'USA', account_number: '12345678', issuer: { code: '000123', scheme: 'chips' } },
      null,
    ],
    [
      'cnaps',
      {
        currency: 'CNY',
        country: 'CHN',
        account_number: '6222021234567890',
        issuer: { code: '102100099996', scheme: 'cnaps' },
      },
      null,
    ],
  ])('accepts a valid %s', async (_name, body, bankName) => {
    const res = await lookup(body).expect(200);
    expect(res.body.data.scheme).toBe((body.issuer as { scheme: string }).scheme);
    expect(res.body.data.bank_name).toBe(bankName);
  });

  it.each([
    [
      'issuer.code',
      { currency: 'USD', country: 'USA', account_number: '123456789', issuer: { code: '021000022', scheme: 'aba' } },
    ],
    [
      'issuer.code',
      { currency: 'USD', country: 'USA', account_number: '123456789', issuer: { code: '02100002', scheme: 'aba' } },
    ],
    ['issuer.code', { currency: 'GBP', country: 'GBR', issuer: { code: 'GB82WEST12345698765431', scheme: 'iban' } }],
    ['issuer.code', { currency: 'GBP', country: 'GBR', issuer: { code: 'GB82WEST1234569876543', scheme: 'iban' } }],
    [
      'issuer.code',
      {
        currency: 'INR',
        country: 'IND',
        account_number: '12345678901',
        issuer: { code: 'SBIN1000300', scheme: 'in_ifsc' },
      },
    ],
    [
      'issuer.code',
      { currency: 'EUR', country: 'DEU', account_number: '1', issuer: { code: 'DEUT1EFF', scheme: 'swift' } },
    ],
    [
      'issuer.code',
      {
        currency: 'ZAR',
        country: 'ZAF',
        account_number: '4057223348',
        issuer: { code: '63200', scheme: 'za_national_clearing_code' },
      },
    ],
    [
      'issuer.code',
      {
        currency: 'GBP',
        country: 'GBR',
        account_number: '31926819',
        issuer: { code: '60-16-13', scheme: 'gb_sort_code' },
      },
    ],
    [
      'issuer.code',
      { currency: 'AUD', country: 'AUS', account_number: '12345678', issuer: { code: '06200', scheme: 'au_bsb' } },
    ],
    [
      'issuer.code',
      { currency: 'BRL', country: 'BRA', account_number: '123456', issuer: { code: '01', scheme: 'br_codigo' } },
    ],
    [
      'issuer.code',
      { currency: 'CAD', country: 'CAN', account_number: '1234567', issuer: { code: '100300002', scheme: 'ca_cpa' } },
    ],
    [
      'issuer.code',
      { currency: 'USD', country: 'USA', account_number: '1', issuer: { code: '12345', scheme: 'chips' } },
    ],
    [
      'issuer.code',
      {
        currency: 'CNY',
        country: 'CHN',
        account_number: '6222021234567890',
        issuer: { code: '10210009999', scheme: 'cnaps' },
      },
    ],
    [
      'account_number',
      {
        currency: 'GBP',
        country: 'GBR',
        account_number: '3192681',
        issuer: { code: '601613', scheme: 'gb_sort_code' },
      },
    ],
    ['account_number', { currency: 'USD', country: 'USA', issuer: { code: '021000021', scheme: 'aba' } }],
    [
      'country',
      {
        currency: 'GBP',
        country: 'IRL',
        account_number: '31926819',
        issuer: { code: '601613', scheme: 'gb_sort_code' },
      },
    ],
    [
      'country',
      { currency: 'EUR', country: 'FRA', account_number: '1', issuer: { code: 'DEUTDEFF', scheme: 'swift' } },
    ],
  ])('answers 422 invalid_account_details naming %s for a near miss', async (field, body) => {
    const res = await lookup(body).expect(422);
    expect(res.body).toMatchObject({ status: 'error', code: 'invalid_account_details' });
    expect(res.body.errors[0].field).toBe(field);
  });

  it.each([
    [
      'account_number',
      {
        currency: 'USD',
        country: 'USA',
        account_number: '1'.repeat(101),
        issuer: { code: '021000021', scheme: 'aba' },
      },
    ],
    [
      'country',
      { currency: 'USD', country: 'US', account_number: '1234', issuer: { code: '021000021', scheme: 'aba' } },
    ],
    [
      'currency',
      { currency: 'usd', country: 'USA', account_number: '1234', issuer: { code: '021000021', scheme: 'aba' } },
    ],
    [
      'issuer.scheme',
      { currency: 'USD', country: 'USA', account_number: '1234', issuer: { code: '021000021', scheme: 'routing' } },
    ],
    ['issuer', { currency: 'USD', country: 'USA', account_number: '1234' }],
  ])('answers 400 naming %s for a malformed body', async (field, body) => {
    const res = await lookup(body).expect(400);
    expect(res.body.errors[0].field).toBe(field);
  });

  it('lists bank codes per country in the spec envelope', async () => {
    for (const country of ['NG', 'GH', 'KE', 'ZA', 'US', 'GB', 'IN']) {
      const res = await t.http.get(`/bank-codes/${country}`).set(bearer(KEYS.sandbox)).expect(200);
      expect(res.body).toMatchObject({ status: 'success', message: expect.any(String) });
      expect(res.body.data.length).toBeGreaterThan(10);
      for (const bank of res.body.data)
        expect(Object.keys(bank).sort()).toEqual(['bank_code', 'bank_name', 'swift_bic']);
    }
    const ng = await t.http.get('/bank-codes/NG').set(bearer(KEYS.sandbox)).expect(200);
    expect(ng.body.data).toContainEqual(expect.objectContaining({ bank_code: '058', swift_bic: 'GTBINGLA' }));
    const lower = await t.http.get('/bank-codes/za').set(bearer(KEYS.sandbox)).expect(200);
    expect(lower.body.data).toContainEqual({ bank_code: '632005', bank_name: 'ABSA', swift_bic: 'ABSAZAJJ' });
  });

  it('answers 404 country_not_supported for a well-formed unsupported country and 400 for a malformed one', async () => {
    const unsupported = await t.http.get('/bank-codes/FR').set(bearer(KEYS.sandbox)).expect(404);
    expect(unsupported.body).toMatchObject({ status: 'error', code: 'country_not_supported' });
    for (const bad of ['USA', 'N1', 'X']) {
      const res = await t.http.get(`/bank-codes/${bad}`).set(bearer(KEYS.sandbox)).expect(400);
      expect(res.body).toMatchObject({
        status: 'error',
        message: expect.any(String),
        errors: [{ field: 'country', message: expect.any(String) }],
      });
    }
    await t.http.get('/bank-codes/NG').expect(401);
  });
});
