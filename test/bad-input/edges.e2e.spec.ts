import { approvedEntity, tokenFor } from '../support/fixtures';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import { bankDetail, createCounterparty } from '../counterparties/helpers';

const nested = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

/** Decisions §2 and §5 at the HTTP edge: each bad input of issue 10 answers its 4xx, never a 500. */
describe('bad input at the edge', () => {
  let t: TestApp;
  let entity: string;
  let counterparty: string;
  beforeAll(async () => {
    t = await startTestApp();
    entity = await approvedEntity(t);
    counterparty = (await createCounterparty(t, entity)).id;
  });
  afterAll(() => t.close());

  const post = (path: string, key: string = KEYS.sandbox) =>
    t.http.post(path).set(bearer(key)).set('Content-Type', 'application/json');
  const paymentDetail = (body: unknown) =>
    post(`/counterparties/${counterparty}/payment-details`).send(JSON.stringify(body));

  it('refuses bodies deeper than 64 levels with 400 invalid_json, however deep', async () => {
    for (const depth of [65, 5000, 100_000]) {
      const res = await post('/accounts').send(nested(depth));
      expect([res.status, res.body.code]).toEqual([400, 'invalid_json']);
    }
    // 64 levels pass the shape check and reach validation (an unknown field).
    const ok = await post('/accounts').send(nested(64));
    expect([ok.status, ok.body.code]).toEqual([400, 'validation_error']);
  });

  it('answers 413 payload_too_large above 1 MB', async () => {
    const res = await post('/accounts').send(JSON.stringify({ currency: 'USD', display_name: 'x'.repeat(1_100_000) }));
    expect([res.status, res.body.code]).toEqual([413, 'payload_too_large']);
  });

  it('refuses a top-level array body with 400 invalid_json', async () => {
    const res = await post('/accounts').send(JSON.stringify([{ entity_id: entity, currency: 'USD' }]));
    expect([res.status, res.body.code]).toEqual([400, 'invalid_json']);
  });

  it('refuses fields sent to a route that takes no body, naming the field', async () => {
    const key = (await post('/api-keys').send({ name: 'spare' }).expect(201)).body.id as string;
    const rotate = await post(`/api-keys/${key}/rotate`).send({ mode: 'live' });
    expect(rotate.status).toBe(400);
    expect(rotate.body.errors).toEqual([{ field: 'mode', message: 'mode is not an accepted field' }]);
    await post(`/api-keys/${key}/rotate`).send({}).expect(200);
  });

  it.each([
    ['__proto__', '{"currency":"USD","__proto__":{"x":1}}'],
    ['constructor', '{"currency":"USD","constructor":{"prototype":{"x":1}}}'],
    [
      'bank.prototype',
      JSON.stringify({
        ...bankDetail({ scheme: 'aba', code: '021000021', account_number: '123456789' }),
        bank: { prototype: 1 },
      }),
    ],
  ])('refuses the prototype key %s as an unknown field', async (field, body) => {
    const path = field.startsWith('bank') ? `/counterparties/${counterparty}/payment-details` : '/accounts';
    const res = await post(path).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      status: 'error',
      code: 'validation_error',
      errors: [{ field, message: `${field} is not an accepted field` }],
    });
  });

  it('refuses prototype keys in the query', async () => {
    const res = await t.http.get('/accounts?__proto__=1').set(bearer(KEYS.sandbox));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: '__proto__', message: '__proto__ is not an accepted field' }]);
  });

  it.each(['Ada\u0000', 'Ada\r\nX', 'A\tda', ' \u007f'])('refuses control characters in names (%j)', async (name) => {
    const res = await post('/counterparties').send({
      type: 'individual',
      entity_id: entity,
      profile: { first_name: name, last_name: 'Lovelace' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('profile.first_name');
  });

  it('lets tab and newline through in a description, and nothing else', async () => {
    const body = (description: string) => ({
      account_id: 'acc_01ARZ3NDEKTSV4RRFFQ69G5FAV',
      payment_detail_id: 'pmd_x',
      amount: 1,
      payment_type: 'bank-transfer',
      unique_reference: 'r1',
      description,
    });
    const passes = await post('/transfers').send(body('line one\n\tline two'));
    expect(passes.body.errors?.[0]?.field).not.toBe('description');
    const refused = await post('/transfers').send(body('carriage\rreturn'));
    expect([refused.status, refused.body.errors[0].field]).toEqual([400, 'description']);
  });

  it.each(['1e2', '0x10', ' 1', '%201', '1.0', '-1', '+5', '', '1,2'])('refuses limit=%s', async (limit) => {
    const res = await t.http.get(`/accounts?limit=${limit}`).set(bearer(KEYS.sandbox));
    expect([res.status, res.body.errors?.[0]?.field]).toEqual([400, 'limit']);
  });

  it('takes a plain decimal limit', async () => {
    await t.http.get('/accounts?limit=07').set(bearer(KEYS.sandbox)).expect(200);
  });

  it.each([null, [], 'aba', 5, true])('refuses bank: %j with 400 naming bank', async (bank) => {
    const res = await paymentDetail({ payment_method: 'bank-transfer', currency: 'USD', country: 'US', bank });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', errors: [{ field: 'bank' }] });
  });

  it.each(['momo', 'wallet', 'book'])('refuses %s: null and [] naming the block', async (block) => {
    for (const value of [null, []]) {
      const res = await paymentDetail({
        payment_method: 'bank-transfer',
        currency: 'USD',
        country: 'US',
        [block]: value,
      });
      expect([res.status, res.body.errors[0].field]).toEqual([400, block]);
    }
  });

  it('refuses a null or array profile, and a null issuer', async () => {
    for (const profile of [null, [], 'x']) {
      const res = await post('/counterparties').send({ type: 'individual', entity_id: entity, profile });
      expect([res.status, res.body.errors[0].field]).toEqual([400, 'profile']);
    }
    const lookup = await post('/counterparty-lookups').send({
      currency: 'EUR',
      country: 'DEU',
      account_number: '1',
      issuer: null,
    });
    expect([lookup.status, lookup.body.errors[0].field]).toEqual([400, 'issuer']);
  });

  it('checks an IBAN-shaped account number as an IBAN under swift', async () => {
    const broken = await paymentDetail(
      bankDetail({ scheme: 'swift', code: 'DEUTDEFF', account_number: 'DE89370400440532013001' }, 'EUR', 'DE'),
    );
    expect([broken.status, broken.body.errors[0].field]).toEqual([400, 'bank.account_number']);
    await paymentDetail(
      bankDetail({ scheme: 'swift', code: 'DEUTDEFF', account_number: 'DE89370400440532013000' }, 'EUR', 'DE'),
    ).expect(201);
  });

  it("answers an entity token naming another entity's account exactly as an absent one", async () => {
    const other = await approvedEntity(t, KEYS.sandbox, 'Other');
    const account = await post('/accounts').send({ entity_id: other, currency: 'GBP' }).expect(201);
    const token = await tokenFor(t, entity);
    const ownCounterparty = (await createCounterparty(t, entity)).id;
    const attempt = (account_id: string) =>
      post(`/counterparties/${ownCounterparty}/payment-details`, token).send({
        payment_method: 'book-transfer',
        currency: 'USD',
        country: 'GB',
        book: { account_id },
      });
    const theirs = await attempt(account.body.id);
    const absent = await attempt('acc_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(theirs.status).toBe(400);
    expect(theirs.body).toEqual(absent.body);
    // The API key still reaches any account of the organization (a currency mismatch says so).
    const byKey = await post(`/counterparties/${ownCounterparty}/payment-details`).send({
      payment_method: 'book-transfer',
      currency: 'USD',
      country: 'GB',
      book: { account_id: account.body.id },
    });
    expect([byKey.status, byKey.body.code]).toEqual([422, 'currency_mismatch']);
  });
  describe('nothing half-understood (decisions §2, issue 27)', () => {
    let account: string;
    beforeAll(async () => {
      account = (await post('/accounts').send({ entity_id: entity, currency: 'USD' }).expect(201)).body.id;
    });
    const balance = async () =>
      (await t.http.get(`/accounts/${account}`).set(bearer(KEYS.sandbox)).expect(200)).body.balance.current as number;

    it.each([
      ['amount', '{"amount":100,"currency":"USD","amount":5}'],
      ['currency', '{"currency":"USD","amount":5,"\\u0063urrency":"EUR"}'],
      ['a.b', '{"amount":5,"currency":"USD","a":[{"x":1},{"b":1,"c":{},"b":2}]}'],
    ])('refuses a duplicate key (%s) with 400 invalid_json naming it, funding nothing', async (key, body) => {
      const before = await balance();
      const res = await post(`/sandbox/accounts/${account}/fund`).send(body);
      expect([res.status, res.body.code]).toEqual([400, 'invalid_json']);
      expect(res.body.message).toContain(`"${key.split('.').pop()}"`);
      expect(await balance()).toBe(before);
    });

    it('names a repeated key printably and briefly', async () => {
      const long = 'k'.repeat(5000);
      for (const [body, shown] of [
        ['{"a\\u0001":1,"a\\u0001":2}', '"a?"'],
        [`{"${long}":1,"${long}":2}`, `"${'k'.repeat(200)}…"`],
      ]) {
        const res = await post(`/sandbox/accounts/${account}/fund`).send(body);
        expect([res.status, res.body.code]).toEqual([400, 'invalid_json']);
        expect(res.body.message).toContain(shown);
        expect(res.body.message.length).toBeLessThan(600);
      }
    });

    it('takes the same key in sibling objects, and escaped text that is not a duplicate', async () => {
      const res = await post('/counterparties').send(
        '{"type":"individual","entity_id":"' +
          entity +
          '","profile":{"first_name":"A\\"da","last_name":"Lovelace"},"x":{"first_name":1}}',
      );
      // The body is read (no invalid_json): `x` is refused as an unknown field.
      expect([res.status, res.body.errors?.[0]?.field]).toEqual([400, 'x']);
    });

    it.each([
      `/accounts/ACC?asof=position:1`,
      `/accounts/ACC/history?foo=1`,
      '/ledger?asof=position:1',
      '/health?verbose=1',
      '/accounts?entity_idd=x',
    ])('refuses a query parameter the route does not take: %s', async (path) => {
      const name = /[?&](asof|foo|verbose|entity_idd)=/.exec(path)![1];
      const res = await t.http.get(path.replace('ACC', account)).set(bearer(KEYS.sandbox));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'validation_error',
        errors: [{ field: name, message: `${name} is not an accepted field` }],
      });
    });

    it('still takes the parameters a route documents', async () => {
      await t.http.get(`/accounts/${account}?as_of=position:1`).set(bearer(KEYS.sandbox)).expect(404);
      await t.http.get(`/accounts?limit=1&entity_id=${entity}`).set(bearer(KEYS.sandbox)).expect(200);
    });

    it.each([
      '__proto__[polluted]',
      'link_to_identity[constructor][prototype][x]',
      'link_to_identity[prototype]',
      'constructor',
      'note',
    ])('refuses the multipart field %s on an upload', async (name) => {
      const res = await t.http
        .post('/documents/upload')
        .set(bearer(KEYS.sandbox))
        .field('key', 'identity')
        .field(name, '1')
        .attach('file', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), {
          filename: 'id.png',
          contentType: 'image/png',
        });
      expect([res.status, res.body.code]).toEqual([400, 'validation_error']);
      expect(res.body.errors[0].message).toMatch(/is not an accepted field$/);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('refuses blank required text naming the field (422 on transfer creation)', async () => {
      const person = await post('/individual-entities').send({
        first_name: '   ',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        date_of_birth: '1990-01-31',
        country_of_residence: 'GB',
      });
      expect([person.status, person.body.errors?.[0]]).toEqual([
        400,
        { field: 'first_name', message: 'first_name must not be blank' },
      ]);
      const transfer = await post('/transfers').send({
        account_id: account,
        payment_detail_id: 'pmd_x',
        amount: 1,
        payment_type: 'bank-transfer',
        unique_reference: '   ',
      });
      expect([transfer.status, transfer.body.errors?.[0]?.field]).toEqual([422, 'unique_reference']);
      expect(transfer.body.errors[0].message).toBe('unique_reference must not be blank');
    });

    it('says a missing required field is required', async () => {
      const res = await post(`/sandbox/accounts/${account}/fund`).send({});
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toEqual({ field: 'amount', message: 'amount is required' });
      const nested = await post('/counterparties').send({
        type: 'individual',
        entity_id: entity,
        profile: { first_name: 'Ada' },
      });
      expect([nested.status, nested.body.errors?.[0]]).toEqual([
        400,
        { field: 'profile.last_name', message: 'profile.last_name is required' },
      ]);
    });

    it.each(['bearer', 'BEARER', 'bEaReR'])('takes the Authorization scheme in any case: %s', async (scheme) => {
      await t.http.get('/accounts').set('Authorization', `${scheme} ${KEYS.sandbox}`).expect(200);
    });

    it('refuses a request with two Authorization headers with 400 invalid_request', async () => {
      for (const second of [KEYS.sandbox, KEYS.other]) {
        // An array is sent as two header lines (Node's setHeader); superagent's types allow it for Cookie only.
        const res = await t.http
          .get('/accounts')
          .set('Authorization', [`Bearer ${KEYS.sandbox}`, `Bearer ${second}`] as unknown as string);
        expect([res.status, res.body.code]).toEqual([400, 'invalid_request']);
      }
    });
  });
});
