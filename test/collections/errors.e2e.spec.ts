import { execFileSync } from 'node:child_process';
import { constants, generateKeyPairSync, publicEncrypt } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import { tokenFor } from '../support/fixtures';
import {
  ADDRESS,
  card,
  cardAction,
  confirm,
  createIntent,
  encrypt,
  intentBody,
  merchant,
  NEXT_YEAR,
  publicKeyOf,
  UNKNOWN_PI,
  walletAction,
} from './helpers';

const create = (t: TestApp, body: unknown, key: string = KEYS.sandbox) =>
  t.http
    .post('/payment-intents')
    .set(bearer(key))
    .send(body as object);

describe('payment intent errors (spec Errors and Limits, decisions §2 and §7)', () => {
  let t: TestApp;
  let account: string;
  let entity: string;
  let pem: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ account, entity } = await merchant(t));
    pem = await publicKeyOf(t);
  });
  afterAll(() => t.close());

  it.each<[Record<string, unknown>, string]>([
    [{ currency: undefined }, 'currency'],
    [{ currency: 'usd' }, 'currency'],
    [{ amount: 0 }, 'amount'],
    [{ amount: 1.5 }, 'amount'],
    [{ amount: '100' }, 'amount'],
    [{ account_id: undefined }, 'account_id'],
    [{ reference: undefined }, 'reference'],
    [{ reference: '' }, 'reference'],
    [{ reference: 'r'.repeat(101) }, 'reference'],
    [{ description: 'd'.repeat(251) }, 'description'],
    [{ surprise: 1 }, 'surprise'],
    [{ intent_action: 'confirm' }, 'intent_action'],
  ])('POST /payment-intents refuses %p with 400 naming %s', async (over, field) => {
    const res = await create(t, { ...intentBody(account), ...over }).expect(400);
    expect(res.body).toMatchObject({ status: 'error', code: 'validation_error' });
    expect(res.body.errors[0].field).toBe(field);
  });

  it('answers 404 for an unknown account and 422 currency_mismatch for another currency', async () => {
    await create(t, intentBody('acc_01ARZ3NDEKTSV4RRFFQ69G5FAV')).expect(404);
    expect((await create(t, intentBody(account, { currency: 'EUR' })).expect(422)).body.code).toBe('currency_mismatch');
  });

  it('keeps reference unique per account: 409, while another account may reuse it', async () => {
    const first = (await create(t, intentBody(account, { reference: 'dup-1' })).expect(201)).body;
    const res = await create(t, intentBody(account, { reference: 'dup-1', amount: 1 })).expect(409);
    // It names the intent that holds the reference, as a duplicate transfer does.
    expect(res.body).toMatchObject({
      status: 'error',
      code: 'duplicate_reference',
      errors: [{ field: 'reference' }],
      id: first.id,
      amount: first.amount,
      payment_intent: first,
    });
    const other = await merchant(t);
    await create(t, intentBody(other.account, { reference: 'dup-1' })).expect(201);
  });

  it('answers 404 for unknown intents on every route', async () => {
    await t.http
      .patch(`/payment-intents/${UNKNOWN_PI}`)
      .set(bearer(KEYS.sandbox))
      .send({ action: 'cancel' })
      .expect(404);
    await confirm(t, UNKNOWN_PI, cardAction(encrypt(pem, card()))).expect(404);
    await confirm(t, 'not-an-id', cardAction(encrypt(pem, card()))).expect(404);
    await t.http.post(`/payment-intents/${UNKNOWN_PI}/refunds`).set(bearer(KEYS.sandbox)).send({}).expect(404);
  });

  describe('the intent action body', () => {
    let intent: string;
    beforeAll(async () => {
      intent = (await createIntent(t, account)).id;
    });

    it.each<[string, (a: Record<string, any>) => void, string]>([
      ['action', (a) => (a.action = 'capture'), 'intent_action.action'],
      ['category', (a) => (a.category = 'payouts'), 'intent_action.category'],
      ['payment_type', (a) => (a.payment_type = 'cash'), 'intent_action.payment_type'],
      ['customer', (a) => delete a.customer, 'intent_action.customer'],
      ['customer email', (a) => (a.customer.email = 'nope'), 'intent_action.customer.email'],
      [
        'billing address',
        (a) => delete a.payment_type_data.billing_address,
        'intent_action.payment_type_data.billing_address',
      ],
      [
        'billing country',
        (a) => (a.payment_type_data.billing_address.country = 'GBR'),
        'intent_action.payment_type_data.billing_address.country',
      ],
      [
        'card billing city',
        (a) => delete a.payment_type_data.billing_address.city,
        'intent_action.payment_type_data.billing_address.city',
      ],
      ['auth_model', (a) => (a.payment_type_data.auth_model = 'none'), 'intent_action.payment_type_data.auth_model'],
      [
        'browser_info for 3ds',
        (a) => delete a.payment_type_data.browser_info,
        'intent_action.payment_type_data.browser_info',
      ],
      ['return_url for 3ds', (a) => delete a.return_url, 'intent_action.return_url'],
      ['return_url scheme', (a) => (a.return_url = 'javascript:alert(1)'), 'intent_action.return_url'],
      ['card data for card-acq', (a) => delete a.payment_type_data.data, 'intent_action.payment_type_data.data'],
      [
        'java_enabled type',
        (a) => (a.payment_type_data.browser_info.java_enabled = 'no'),
        'intent_action.payment_type_data.browser_info.java_enabled',
      ],
    ])('refuses a bad %s with 400 naming it', async (_what, change, field) => {
      const action = JSON.parse(JSON.stringify(cardAction(encrypt(pem, card())))) as Record<string, any>;
      change(action);
      const res = await confirm(t, intent, action).expect(400);
      expect(res.body.errors[0].field).toBe(field);
    });

    it('refuses card data on a wallet, and a missing payment_intent_id', async () => {
      expect(
        (await confirm(t, intent, walletAction({}, { data: encrypt(pem, card()) })).expect(400)).body.errors[0].field,
      ).toBe('intent_action.payment_type_data.data');
      expect(
        (
          await t.http
            .post('/intent-actions')
            .set(bearer(KEYS.sandbox))
            .send({ intent_action: walletAction() })
            .expect(400)
        ).body.errors[0].field,
      ).toBe('payment_intent_id');
    });

    it.each<[string, () => string]>([
      ['not Base64', () => '%%%not-base64%%%'],
      ['random bytes', () => Buffer.alloc(256, 7).toString('base64')],
      [
        'PKCS#1 v1.5 padding',
        () =>
          publicEncrypt(
            { key: pem, padding: constants.RSA_PKCS1_PADDING },
            Buffer.from(JSON.stringify(card())),
          ).toString('base64'),
      ],
      [
        'OAEP with SHA-1',
        () =>
          publicEncrypt(
            { key: pem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
            Buffer.from(JSON.stringify(card())),
          ).toString('base64'),
      ],
      [
        'another key pair',
        () =>
          encrypt(
            generateKeyPairSync('rsa', { modulusLength: 2048 })
              .publicKey.export({ type: 'spki', format: 'pem' })
              .toString(),
            card(),
          ),
      ],
      ['not JSON inside', () => encrypt(pem, 'card 4242424242424242')],
    ])('answers 400 invalid_encrypted_data for %s, and the intent stays requires_action', async (_what, data) => {
      const res = await confirm(t, intent, cardAction(data())).expect(400);
      expect(res.body).toMatchObject({
        status: 'error',
        code: 'invalid_encrypted_data',
        errors: [{ field: 'intent_action.payment_type_data.data' }],
      });
      expect((await t.http.get(`/payment-intents/${intent}`).set(bearer(KEYS.sandbox))).body.status).toBe(
        'requires_action',
      );
    });

    it('refuses data encrypted for another API key’s public key, even of the same organization', async () => {
      const other = (await t.http.post('/api-keys').set(bearer(KEYS.sandbox)).send({ name: 'second' }).expect(201))
        .body;
      const res = await confirm(t, intent, cardAction(encrypt(other.encryption_public_key, card()))).expect(400);
      expect(res.body.code).toBe('invalid_encrypted_data');
      // …and that key can confirm with its own.
      await confirm(t, intent, cardAction(encrypt(other.encryption_public_key, card())), other.key).expect(201);
    });

    it('after a rotation only the new encryption key decrypts', async () => {
      const created = (await t.http.post('/api-keys').set(bearer(KEYS.sandbox)).send({ name: 'rotating' }).expect(201))
        .body;
      const rotated = (await t.http.post(`/api-keys/${created.id}/rotate`).set(bearer(KEYS.sandbox)).expect(200)).body;
      expect(rotated.encryption_public_key).not.toBe(created.encryption_public_key);
      const fresh = (await createIntent(t, account)).id;
      expect(
        (await confirm(t, fresh, cardAction(encrypt(created.encryption_public_key, card())), rotated.key).expect(400))
          .body.code,
      ).toBe('invalid_encrypted_data');
      await confirm(t, fresh, cardAction(encrypt(rotated.encryption_public_key, card())), rotated.key).expect(201);
    });

    it.each<[Record<string, unknown>, string]>([
      [{ card_number: '4242 4242 4242 4241' }, 'card_number'],
      [{ card_number: '424242424242' }, 'card_number'],
      [{ expiration_month: '13' }, 'expiration_month'],
      [{ expiration_year: '1999' }, 'expiration_year'],
      [{ expiration_year: NEXT_YEAR.slice(2) }, 'expiration_year'],
      [{ cvv: '12' }, 'cvv'],
      [{ cvv: undefined }, 'cvv'],
    ])('refuses decrypted card %p with 400 naming %s', async (over, field) => {
      const fresh = (await createIntent(t, account)).id;
      const res = await confirm(t, fresh, cardAction(encrypt(pem, card(over)))).expect(400);
      expect(res.body.errors[0].field).toBe(`intent_action.payment_type_data.data.${field}`);
    });

    it('create-and-confirm with a bad card writes nothing: the reference stays free', async () => {
      const body = intentBody(account, {
        reference: 'bad-card-first',
        intent_action: cardAction(encrypt(pem, card({ cvv: '1' }))),
      });
      await create(t, body).expect(400);
      await create(t, { ...body, intent_action: cardAction(encrypt(pem, card())) }).expect(201);
    });
  });

  it('decrypts with the issuing key’s pair for an entity token', async () => {
    const token = await tokenFor(t, entity);
    const intent = await createIntent(t, account, {}, token);
    await confirm(t, intent.id, cardAction(encrypt(pem, card())), token).expect(201);
  });

  it('accepts card data encrypted by openssl pkeyutl (RSA-OAEP, SHA-256)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openssl-card-'));
    writeFileSync(join(dir, 'key.pem'), pem);
    writeFileSync(join(dir, 'card.json'), JSON.stringify(card({ card_number: '4242 4242 4242 4242' })));
    execFileSync('openssl', [
      'pkeyutl',
      '-encrypt',
      '-pubin',
      '-inkey',
      join(dir, 'key.pem'),
      '-in',
      join(dir, 'card.json'),
      '-out',
      join(dir, 'card.bin'),
      '-pkeyopt',
      'rsa_padding_mode:oaep',
      '-pkeyopt',
      'rsa_oaep_md:sha256',
    ]);
    const data = readFileSync(join(dir, 'card.bin')).toString('base64');
    const intent = await createIntent(t, account);
    const res = await confirm(
      t,
      intent.id,
      cardAction(
        data,
        { return_url: undefined },
        { auth_model: '3ds_disabled', browser_info: undefined, billing_address: ADDRESS },
      ),
    ).expect(201);
    expect(res.body).toMatchObject({
      status: 'completed',
      payment_type_data: { last_four_digits: '4242', card_brand: 'visa' },
    });
  });
});
