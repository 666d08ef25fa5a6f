import { connect } from 'node:net';
import { CommandBus } from '@nestjs/cqrs';
import { approvedEntity, tokenFor } from '../support/fixtures';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import { openAccount } from '../accounts/accounts-helpers';
import { UNKNOWN_ACCOUNT } from '../accounts/accounts-helpers';
import { balanceOf, fund, paymentDetail, BANK_USD, transferBody } from '../transfers/helpers';
import { createCounterparty } from '../counterparties/helpers';
import { accountBody, accountsOf, holdNextCommand, logHead, replayed, uniqueKey, withKey } from './helpers';

/** Decisions §13: what a key refuses, what it does not store, whose it is, and the concurrent case. */
describe('Idempotency-Key: the rules of decisions §13', () => {
  let t: TestApp;
  let entity: string;

  beforeAll(async () => {
    t = await startTestApp();
    entity = await approvedEntity(t);
  });
  afterAll(() => t.close());

  describe('422 idempotency_key_reused: one key, one request', () => {
    it('refuses the key with another body, another path or another method, and runs none of them', async () => {
      const own = await approvedEntity(t);
      const key = uniqueKey('reuse');
      const first = await t.http.post('/accounts').set(withKey(key)).send(accountBody(own)).expect(201);
      const head = await logHead(t);
      const other = await openAccount(t, KEYS.sandbox, accountBody(own));
      const attempts = [
        t.http
          .post('/accounts')
          .set(withKey(key))
          .send(accountBody(own, { currency: 'EUR' })),
        t.http
          .post('/accounts')
          .set(withKey(key))
          .send({ ...accountBody(own), display_name: 'Other' }),
        t.http.post('/accounts?x=1').set(withKey(key)).send(accountBody(own)),
        t.http.post(`/sandbox/accounts/${other.id}/fund`).set(withKey(key)).send({ amount: 1, currency: 'USD' }),
        t.http.delete(`/api-keys/key_01ARZ3NDEKTSV4RRFFQ69G5FAV`).set(withKey(key)),
      ];
      const headAfterOther = await logHead(t);
      for (const res of await Promise.all(attempts)) {
        expect([res.status, res.body]).toEqual([
          422,
          { status: 'error', code: 'idempotency_key_reused', message: expect.any(String), errors: [] },
        ]);
        expect(replayed(res)).toBe(false);
      }
      expect(headAfterOther).toBeGreaterThan(head);
      expect(await logHead(t)).toBe(headAfterOther);
      expect(await balanceOf(t, other.id)).toEqual({ available: 0, current: 0 });
      // The key still holds its own answer.
      const again = await t.http.post('/accounts').set(withKey(key)).send(accountBody(own)).expect(201);
      expect([replayed(again), again.body.id]).toEqual([true, first.body.id]);
    });

    it('reads the same request whatever the order of its JSON keys or its whitespace', async () => {
      const own = await approvedEntity(t);
      const key = uniqueKey('canonical');
      const first = await t.http
        .post('/accounts')
        .set(withKey(key))
        .set('Content-Type', 'application/json')
        .send(`{"entity_id":"${own}","type":"checking","currency":"USD"}`)
        .expect(201);
      const again = await t.http
        .post('/accounts')
        .set(withKey(key))
        .set('Content-Type', 'application/json')
        .send(`{ "currency": "USD",\n  "type": "checking", "entity_id": "${own}" }`)
        .expect(201);
      expect([replayed(again), again.body.id]).toEqual([true, first.body.id]);
    });
  });

  describe('409 idempotency_key_in_use while the first request runs', () => {
    it('answers 409 to the same request while the first is held inside its handler, then the stored answer', async () => {
      const own = await approvedEntity(t);
      const key = uniqueKey('busy');
      const held = holdNextCommand(t);
      try {
        const first = t.http
          .post('/accounts')
          .set(withKey(key))
          .send(accountBody(own))
          .then((r) => r);
        await held.entered;
        const busy = await t.http.post('/accounts').set(withKey(key)).send(accountBody(own)).expect(409);
        expect(busy.body).toEqual({
          status: 'error',
          code: 'idempotency_key_in_use',
          message: expect.any(String),
          errors: [],
        });
        expect(busy.headers['retry-after']).toBe('1');
        // A different request under the running key is still a reuse.
        expect(
          (
            await t.http
              .post('/accounts')
              .set(withKey(key))
              .send(accountBody(own, { currency: 'EUR' }))
              .expect(422)
          ).body.code,
        ).toBe('idempotency_key_reused');
        held.release();
        const done = await first;
        expect([done.status, replayed(done)]).toEqual([201, false]);
        const after = await t.http.post('/accounts').set(withKey(key)).send(accountBody(own)).expect(201);
        expect([replayed(after), after.body.id]).toEqual([true, done.body.id]);
        expect(await accountsOf(t, own)).toEqual([done.body.id]);
      } finally {
        held.release();
        held.restore();
      }
    });

    it('runs 20 concurrent requests under one key once: one answer ran, the others are replays or 409', async () => {
      const own = await approvedEntity(t);
      const account = (await openAccount(t, KEYS.sandbox, accountBody(own))).id;
      const key = uniqueKey('twenty');
      const [accounts, fundings] = await Promise.all([
        Promise.all(
          Array.from({ length: 20 }, () =>
            t.http
              .post('/accounts')
              .set(withKey(key))
              .send(accountBody(own, { currency: 'EUR' })),
          ),
        ),
        Promise.all(
          Array.from({ length: 20 }, () =>
            t.http
              .post(`/sandbox/accounts/${account}/fund`)
              .set(withKey(`${key}-fund`))
              .send({ amount: 700, currency: 'USD' }),
          ),
        ),
      ]);
      for (const answers of [accounts, fundings]) {
        const ran = answers.filter((r) => r.status === 201 && !replayed(r));
        expect(ran).toHaveLength(1);
        for (const r of answers.filter((a) => a !== ran[0])) {
          if (r.status === 201) expect([replayed(r), r.text]).toEqual([true, ran[0].text]);
          else expect([r.status, r.body.code]).toEqual([409, 'idempotency_key_in_use']);
        }
      }
      expect((await accountsOf(t, own)).length).toBe(2);
      expect(await balanceOf(t, account)).toEqual({ available: 700, current: 700 });
    });
  });

  describe('not stored: the key is released and a retry runs', () => {
    it('runs the corrected body under the key of a 400 validation error', async () => {
      const own = await approvedEntity(t);
      const key = uniqueKey('400');
      const bad = await t.http
        .post('/accounts')
        .set(withKey(key))
        .send(accountBody(own, { currency: 'usd!' }))
        .expect(400);
      expect(bad.body.code).toBe('validation_error');
      const unknownField = await t.http
        .post('/accounts')
        .set(withKey(key))
        .send(accountBody(own, { colour: 'red' }))
        .expect(400);
      expect(unknownField.body.code).toBe('validation_error');
      const good = await t.http.post('/accounts').set(withKey(key)).send(accountBody(own)).expect(201);
      expect(replayed(good)).toBe(false);
      expect(await accountsOf(t, own)).toEqual([good.body.id]);
    });

    it('runs a transfer under the key of its 422 validation_error (transfer creation validates with 422)', async () => {
      const account = (await openAccount(t, KEYS.sandbox, accountBody(entity))).id;
      await fund(t, account, 100_000, 'USD');
      const detail = await paymentDetail(t, (await createCounterparty(t, entity)).id, BANK_USD);
      const key = uniqueKey('trf-422');
      const invalid = await t.http
        .post('/transfer')
        .set(withKey(key))
        .send(transferBody(account, detail, { amount: -5 }))
        .expect(422);
      expect(invalid.body.code).toBe('validation_error');
      const created = await t.http.post('/transfer').set(withKey(key)).send(transferBody(account, detail)).expect(201);
      expect(replayed(created)).toBe(false);
    });

    it('runs again after a 404, a 403 and a 401', async () => {
      const key = uniqueKey('404');
      await t.http
        .post(`/sandbox/accounts/${UNKNOWN_ACCOUNT}/fund`)
        .set(withKey(key))
        .send({ amount: 1, currency: 'USD' })
        .expect(404);
      const account = (await openAccount(t, KEYS.sandbox, accountBody(entity))).id;
      // The path differs from the 404's: had the 404 been stored, this would be a reuse (422).
      await t.http
        .post(`/sandbox/accounts/${account}/fund`)
        .set(withKey(key))
        .send({ amount: 1, currency: 'USD' })
        .expect(201);

      const token = await tokenFor(t, entity);
      const forbiddenKey = uniqueKey('403');
      await t.http
        .post('/entities')
        .set(withKey(forbiddenKey, token))
        .send({ first_name: 'A', last_name: 'B', email: 'a@example.com', country: 'NG' })
        .expect(403);
      const ok = await t.http
        .post('/accounts')
        .set(withKey(forbiddenKey, token))
        .send({ type: 'checking', currency: 'GBP' })
        .expect(201);
      expect(replayed(ok)).toBe(false);

      const unauthorizedKey = uniqueKey('401');
      await t.http
        .post('/accounts')
        .set({ Authorization: 'Bearer sk_test_unknownunknownunknown', 'Idempotency-Key': unauthorizedKey })
        .send(accountBody(entity))
        .expect(401);
      expect(
        replayed(await t.http.post('/accounts').set(withKey(unauthorizedKey)).send(accountBody(entity)).expect(201)),
      ).toBe(false);
    });

    it('runs again after a 5xx: the failure is ours, the retry runs', async () => {
      const own = await approvedEntity(t);
      const key = uniqueKey('500');
      const bus = t.app.get(CommandBus);
      const spy = jest.spyOn(bus, 'execute').mockRejectedValueOnce(new Error('the event store went away'));
      try {
        const failed = await t.http.post('/accounts').set(withKey(key)).send(accountBody(own)).expect(500);
        expect(failed.body.code).toBe('internal_error');
      } finally {
        spy.mockRestore();
      }
      const ran = await t.http.post('/accounts').set(withKey(key)).send(accountBody(own)).expect(201);
      expect(replayed(ran)).toBe(false);
      expect(await accountsOf(t, own)).toEqual([ran.body.id]);
    });

    it('runs again after a 413: a body over the limit is refused before the request runs', async () => {
      const own = await approvedEntity(t);
      const key = uniqueKey('413');
      await t.http
        .post('/accounts')
        .set(withKey(key))
        .send({ ...accountBody(own), display_name: 'x'.repeat(1_100_000) })
        .expect(413);
      expect(replayed(await t.http.post('/accounts').set(withKey(key)).send(accountBody(own)).expect(201))).toBe(false);
    });
  });

  describe('scope: the credential organization and mode', () => {
    it('keeps one key apart between organizations, modes and entity tokens of different entities', async () => {
      const key = uniqueKey('scope');
      const create = (credential: string, body: Record<string, unknown>) =>
        t.http.post('/accounts').set(withKey(key, credential)).send(body);
      const sandboxEntity = await approvedEntity(t);
      const otherOrgEntity = await approvedEntity(t, KEYS.other);
      const liveEntity = (
        await t.http
          .post('/entities')
          .set(bearer(KEYS.live))
          .send({ first_name: 'L', last_name: 'Ive', email: 'l@example.com', country: 'NG' })
          .expect(201)
      ).body.id;
      const a = await create(KEYS.sandbox, accountBody(sandboxEntity)).expect(201);
      const b = await create(KEYS.other, accountBody(otherOrgEntity)).expect(201);
      // A live quick-start entity is pending until reviewed: the key ran there too, to its own 422.
      const c = await create(KEYS.live, { entity_id: liveEntity, type: 'checking', currency: 'USD' }).expect(422);
      expect([replayed(a), replayed(b), replayed(c), c.body.code]).toEqual([
        false,
        false,
        false,
        'entity_not_approved',
      ]);
      expect(a.body.id).not.toBe(b.body.id);
      for (const [credential, body, first] of [
        [KEYS.sandbox, accountBody(sandboxEntity), a],
        [KEYS.other, accountBody(otherOrgEntity), b],
        [KEYS.live, { entity_id: liveEntity, type: 'checking', currency: 'USD' }, c],
      ] as const) {
        const again = await create(credential, body);
        expect([again.status, replayed(again), again.text]).toEqual([first.status, true, first.text]);
      }

      // Tokens of two entities of one organization, the same key and the same body: each runs.
      const [e1, e2] = [await approvedEntity(t), await approvedEntity(t)];
      const [t1, t2] = [await tokenFor(t, e1), await tokenFor(t, e2)];
      const body = { type: 'checking', currency: 'USD' };
      const r1 = await create(t1, body).expect(201);
      const r2 = await create(t2, body).expect(201);
      expect([replayed(r1), replayed(r2), r1.body.entity_id, r2.body.entity_id]).toEqual([false, false, e1, e2]);
      expect(r1.body.id).not.toBe(r2.body.id);
      // Another token of the first entity shares its entity's keys.
      const again = await create(await tokenFor(t, e1), body).expect(201);
      expect([replayed(again), again.body.id]).toEqual([true, r1.body.id]);
      // Every API key of the organization and mode shares them.
      const second = (await t.http.post('/api-keys').set(bearer(KEYS.sandbox)).send({ name: 'second' }).expect(201))
        .body.key as string;
      const viaSecond = await create(second, accountBody(sandboxEntity)).expect(201);
      expect([replayed(viaSecond), viaSecond.body.id]).toEqual([true, a.body.id]);
    });
  });

  describe('400 invalid_idempotency_key', () => {
    const refused = async (send: () => Promise<import('supertest').Response>) => {
      const head = await logHead(t);
      const res = await send();
      expect([res.status, res.body]).toEqual([
        400,
        {
          status: 'error',
          code: 'invalid_idempotency_key',
          message: expect.any(String),
          errors: [{ field: 'Idempotency-Key', message: expect.any(String) }],
        },
      ]);
      expect(await logHead(t)).toBe(head);
    };

    it('refuses an empty key, 256 characters, non-ASCII, a space or a tab, writing nothing; takes 255 visible characters', async () => {
      const own = await approvedEntity(t);
      const post = (key: string) => () => t.http.post('/accounts').set(withKey(key)).send(accountBody(own));
      for (const key of ['', 'k'.repeat(256), 'clé-1', 'two words', 'tab\there']) await refused(post(key));
      expect(await accountsOf(t, own)).toEqual([]);
      const longest = '!'.repeat(100) + '~'.repeat(155);
      expect(replayed(await post(longest)().expect(201))).toBe(false);
      expect(replayed(await post(longest)().expect(201))).toBe(true);
    });

    it('refuses a key sent twice, a raw non-ASCII byte, and control characters (those Node refuses itself)', async () => {
      const own = await approvedEntity(t);
      await refused(() =>
        t.http
          .post('/accounts')
          .set(bearer(KEYS.sandbox))
          .set('Idempotency-Key', ['a', 'b'] as unknown as string)
          .send(accountBody(own)),
      );
      const body = JSON.stringify(accountBody(own));
      const nonAscii = await rawPost(t, '/accounts', 'k\xffk', body);
      expect(nonAscii).toMatch(/^HTTP\/1\.1 400 /);
      expect(nonAscii).toContain('"code":"invalid_idempotency_key"');
      // Control characters but tab never reach the app: Node's HTTP parser answers 400 itself.
      for (const control of ['k\x7fk', 'k\x01k'])
        expect(await rawPost(t, '/accounts', control, body)).toMatch(/^HTTP\/1\.1 400 /);
      expect(await accountsOf(t, own)).toEqual([]);
    });

    it('ignores the key on a GET, and on a request without a credential (401 first)', async () => {
      await t.http
        .get('/accounts?entity_id=' + entity)
        .set(withKey(''))
        .expect(200);
      const res = await t.http.post('/accounts').set({ 'Idempotency-Key': '' }).send(accountBody(entity)).expect(401);
      expect(res.body.code).toBe('unauthorized');
    });
  });
});

/** A request written on a socket, so a header byte no HTTP client library would send reaches the server. */
function rawPost(t: TestApp, path: string, idempotencyKey: string, body: string): Promise<string> {
  const server = t.app.getHttpServer();
  const address = (server.address() ?? (server.listen(0), server.address())) as { port: number };
  return new Promise((resolve, reject) => {
    const socket = connect(address.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.write(
      Buffer.from(
        `POST ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEYS.sandbox}\r\nIdempotency-Key: ${idempotencyKey}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        'latin1',
      ),
    );
  });
}
