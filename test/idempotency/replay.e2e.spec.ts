import { approvedEntity } from '../support/fixtures';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import { openAccount } from '../accounts/accounts-helpers';
import { balanceOf, fund, paymentDetail, BANK_USD, transferBody } from '../transfers/helpers';
import { createCounterparty } from '../counterparties/helpers';
import { card, cardAction, confirm, createIntent, encrypt, publicKeyOf } from '../collections/helpers';
import { accountBody, accountsOf, logHead, replayed, uniqueKey, withKey } from './helpers';

/**
 * Decisions §13, the replay: the first request with a key runs; the same request again gets the
 * stored answer (status, body and the headers a client needs) with `Idempotent-Replayed: true`
 * and runs nothing, whatever the answer was (2xx, a 409 conflict, a 422 business rule).
 */
describe('Idempotency-Key: a retried request runs once and gets its answer again', () => {
  let t: TestApp;
  let entity: string;

  beforeAll(async () => {
    t = await startTestApp();
    entity = await approvedEntity(t);
  });
  afterAll(() => t.close());

  it('credits a sandbox funding sent 10 times under one key once, and answers all 10 alike', async () => {
    const account = (await openAccount(t, KEYS.sandbox, accountBody(entity))).id;
    const key = uniqueKey('fund');
    const answers = [];
    for (let i = 0; i < 10; i++)
      answers.push(
        await t.http
          .post(`/sandbox/accounts/${account}/fund`)
          .set(withKey(key))
          .send({ amount: 1_500, currency: 'USD' }),
      );
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(answers.map(replayed)).toEqual([false, ...Array(9).fill(true)]);
    for (const r of answers) {
      expect(r.text).toBe(answers[0].text);
      expect(r.headers['content-type']).toBe(answers[0].headers['content-type']);
      expect(r.headers['x-request-id']).toBeDefined();
    }
    expect(new Set(answers.map((r) => r.headers['x-request-id'])).size).toBe(10);
    expect(await balanceOf(t, account)).toEqual({ available: 1_500, current: 1_500 });
  });

  it('makes one account of two POST /accounts with one key', async () => {
    const own = await approvedEntity(t);
    const key = uniqueKey('acc');
    const first = await t.http.post('/accounts').set(withKey(key)).send(accountBody(own)).expect(201);
    const head = await logHead(t);
    const second = await t.http.post('/accounts').set(withKey(key)).send(accountBody(own)).expect(201);
    expect(replayed(first)).toBe(false);
    expect(replayed(second)).toBe(true);
    expect(second.body).toEqual(first.body);
    expect(await logHead(t)).toBe(head);
    expect(await accountsOf(t, own)).toEqual([first.body.id]);
  });

  it('refunds a refund retried under one key once, and stores a 422 business refusal to replay it identically', async () => {
    const account = (await openAccount(t, KEYS.sandbox, accountBody(entity))).id;
    await fund(t, account, 100_000, 'USD');
    const pem = await publicKeyOf(t);
    const intent = await createIntent(t, account, { amount: 10_000 });
    await confirm(
      t,
      intent.id,
      cardAction(
        encrypt(pem, card()),
        { return_url: undefined },
        { auth_model: '3ds_disabled', browser_info: undefined },
      ),
    ).expect(201);
    const before = await balanceOf(t, account);

    const key = uniqueKey('rfd');
    const refund = () =>
      t.http.post(`/payment-intents/${intent.id}/refunds`).set(withKey(key)).send({ amount: 4_000, reason: 'damaged' });
    const first = await refund().expect(201);
    const retries = [await refund(), await refund()];
    for (const r of retries) {
      expect([r.status, replayed(r), r.body]).toEqual([201, true, first.body]);
    }
    expect(await balanceOf(t, account)).toEqual({
      available: before.available - 4_000,
      current: before.current - 4_000,
    });
    const refunds = (await t.http.get(`/payment-intents/${intent.id}/refunds`).set(bearer(KEYS.sandbox)).expect(200))
      .body.data;
    expect(refunds.map((r: { id: string }) => r.id)).toEqual([first.body.id]);

    // A refusal on a business rule is the answer to that request: stored, and replayed as it was,
    // even once the rule would now pass (it ran; a new attempt is a new key).
    const tooMuch = uniqueKey('rfd-422');
    const refused = await t.http
      .post(`/payment-intents/${intent.id}/refunds`)
      .set(withKey(tooMuch))
      .send({ amount: 10_001 })
      .expect(422);
    expect(refused.body).toMatchObject({
      status: 'error',
      code: 'refund_exceeds_charge',
      errors: [{ field: 'amount', message: expect.any(String) }],
    });
    const again = await t.http
      .post(`/payment-intents/${intent.id}/refunds`)
      .set(withKey(tooMuch))
      .send({ amount: 10_001 })
      .expect(422);
    expect([replayed(again), again.text, again.headers['content-type']]).toEqual([
      true,
      refused.text,
      refused.headers['content-type'],
    ]);
  });

  it('keeps unique_reference beside it: a transfer retried under its key is replayed, under another key answers 409 with the original', async () => {
    const account = (await openAccount(t, KEYS.sandbox, accountBody(entity))).id;
    await fund(t, account, 1_000_000, 'USD');
    const counterparty = (await createCounterparty(t, entity)).id;
    const detail = await paymentDetail(t, counterparty, BANK_USD);
    const body = transferBody(account, detail);
    const key = uniqueKey('trf');
    const created = await t.http.post('/transfer').set(withKey(key)).send(body).expect(201);
    const retried = await t.http.post('/transfer').set(withKey(key)).send(body).expect(201);
    expect([replayed(retried), retried.body]).toEqual([true, created.body]);

    const otherKey = uniqueKey('trf-dup');
    const duplicate = await t.http.post('/transfer').set(withKey(otherKey)).send(body).expect(409);
    expect(duplicate.body).toMatchObject({ code: 'duplicate_unique_reference', transfer: created.body });
    // The 409 conflict is stored too: the same request under that key gets it again, unchanged.
    const duplicateAgain = await t.http.post('/transfer').set(withKey(otherKey)).send(body).expect(409);
    expect([replayed(duplicateAgain), duplicateAgain.text]).toEqual([true, duplicate.text]);
    const noKey = await t.http.post('/transfer').set(bearer(KEYS.sandbox)).send(body).expect(409);
    expect(replayed(noKey)).toBe(false);
    expect(await balanceOf(t, account)).toEqual({ available: 1_000_000 - 10_000 - 25, current: 1_000_000 });
  });

  it('replays a DELETE and a PATCH: a key revoked under one key answers its 200 again, not 409', async () => {
    const created = await t.http.post('/api-keys').set(bearer(KEYS.sandbox)).send({ name: 'to revoke' }).expect(201);
    const key = uniqueKey('del');
    const revoked = await t.http.delete(`/api-keys/${created.body.id}`).set(withKey(key)).expect(200);
    const again = await t.http.delete(`/api-keys/${created.body.id}`).set(withKey(key)).expect(200);
    expect([replayed(again), again.body]).toEqual([true, revoked.body]);
    expect((await t.http.delete(`/api-keys/${created.body.id}`).set(bearer(KEYS.sandbox)).expect(409)).body.code).toBe(
      'api_key_revoked',
    );

    const counterparty = (await createCounterparty(t, entity)).id;
    const patchKey = uniqueKey('patch');
    const patched = await t.http
      .patch(`/counterparties/${counterparty}`)
      .set(withKey(patchKey))
      .send({ nickname: 'first' })
      .expect(200);
    await t.http
      .patch(`/counterparties/${counterparty}`)
      .set(bearer(KEYS.sandbox))
      .send({ nickname: 'second' })
      .expect(200);
    const replayedPatch = await t.http
      .patch(`/counterparties/${counterparty}`)
      .set(withKey(patchKey))
      .send({ nickname: 'first' })
      .expect(200);
    expect([replayed(replayedPatch), replayedPatch.body]).toEqual([true, patched.body]);
  });

  it('fingerprints an upload by its file: the same upload is replayed, another file under the key is refused', async () => {
    const person = (
      await t.http
        .post('/individual-entities')
        .set(bearer(KEYS.sandbox))
        .send({
          first_name: 'Grace',
          last_name: 'Hopper',
          email: 'grace@example.com',
          date_of_birth: '1906-12-09',
          country_of_residence: 'US',
        })
        .expect(201)
    ).body.person_id as string;
    const upload = (key: string, file: Buffer) =>
      t.http
        .post('/documents/upload')
        .set(withKey(key))
        .field('key', 'identity')
        .field('link_to_identity[person_id]', person)
        .attach('file', file, { filename: 'passport.pdf', contentType: 'application/pdf' });
    const key = uniqueKey('doc');
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
    const first = await upload(key, pdf).expect(201);
    const again = await upload(key, pdf).expect(201);
    expect([replayed(again), again.body]).toEqual([true, first.body]);
    const other = await upload(key, Buffer.from('%PDF-1.4\n% another\n%%EOF\n')).expect(422);
    expect(other.body.code).toBe('idempotency_key_reused');
  });

  it('changes nothing for requests without a key: two POST /accounts make two accounts', async () => {
    const own = await approvedEntity(t);
    const a = await t.http.post('/accounts').set(bearer(KEYS.sandbox)).send(accountBody(own)).expect(201);
    const b = await t.http.post('/accounts').set(bearer(KEYS.sandbox)).send(accountBody(own)).expect(201);
    expect([replayed(a), replayed(b)]).toEqual([false, false]);
    expect((await accountsOf(t, own)).sort()).toEqual([a.body.id, b.body.id].sort());
  });

  it('replays after a restart: the answer is kept on disk', async () => {
    const own = await approvedEntity(t);
    const key = uniqueKey('restart');
    const first = await t.http.post('/accounts').set(withKey(key)).send(accountBody(own)).expect(201);
    t = await t.restart();
    const again = await t.http.post('/accounts').set(withKey(key)).send(accountBody(own)).expect(201);
    expect([replayed(again), again.body]).toEqual([true, first.body]);
    expect(await accountsOf(t, own)).toEqual([first.body.id]);
  });
});
