import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Response } from 'supertest';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import { fund } from '../transfers/helpers';
import { authorize, balance, holder, virtualCard } from '../cards/helpers';
import { card, cardAction, confirm, createIntent, encrypt, merchant, publicKeyOf } from '../collections/helpers';

/**
 * Strict HTTP (decisions §2): a body in a content type the route does not take is refused with
 * 415 and never silently ignored, a known path with another method answers 405 with `Allow`,
 * and both come before authentication (docs/decisions/infrastructure.md, "Strict HTTP").
 */
describe('strict HTTP: 415 unsupported_media_type, 405 method_not_allowed', () => {
  let t: TestApp;
  let store: EventStore;
  const auth = bearer(KEYS.sandbox);

  beforeAll(async () => {
    t = await startTestApp();
    store = t.app.get<EventStore>(EVENT_STORE);
  });
  afterAll(() => t.close());

  const envelope = (res: Response, code: string) => {
    expect(res.body).toEqual({ status: 'error', code, message: expect.any(String), errors: [] });
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  };

  /** Runs `act` and says whether anything was appended to the log meanwhile. */
  const wroteDuring = async (act: () => Promise<unknown>): Promise<string[]> => {
    const head = await store.headPosition();
    await act();
    return (await store.readAll({ after: head })).map((e) => e.type);
  };

  describe('415 on JSON routes', () => {
    const BODY = '{"name":"sent as something else"}';
    it.each([
      ['text/plain', BODY],
      ['text/plain; charset=utf-8', BODY],
      ['application/xml', '<key><name>x</name></key>'],
      [
        'multipart/form-data; boundary=xyz',
        '--xyz\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--xyz--\r\n',
      ],
      ['application/octet-stream', BODY],
    ])('refuses %s with the envelope, writing nothing', async (type, body) => {
      let res!: Response;
      expect(
        await wroteDuring(
          async () => (res = await t.http.post('/api-keys').set(auth).set('Content-Type', type).send(body)),
        ),
      ).toEqual([]);
      expect(res.status).toBe(415);
      envelope(res, 'unsupported_media_type');
      expect(res.body.message).toContain(type.split(';')[0]);
      expect(res.body.message).toContain('Content-Type: application/json');
    });

    it('refuses a form (what curl -d sends) and tells the caller to send Content-Type: application/json', async () => {
      let res!: Response;
      expect(
        await wroteDuring(async () => (res = await t.http.post('/api-keys').set(auth).type('form').send('name=form'))),
      ).toEqual([]);
      expect(res.status).toBe(415);
      envelope(res, 'unsupported_media_type');
      expect(res.body.message).toMatch(
        /application\/x-www-form-urlencoded.*curl -d.*send Content-Type: application\/json/,
      );
    });

    it('refuses a body without a Content-Type', async () => {
      const res = await t.http
        .post('/api-keys')
        .set(auth)
        .serialize((b: string) => b)
        .set('Content-Type', '')
        .send('{"name":"x"}');
      expect(res.status).toBe(415);
      envelope(res, 'unsupported_media_type');
    });

    it('refuses before authentication: 415 without a key, and with a bad one', async () => {
      envelope(
        await t.http.post('/api-keys').set('Content-Type', 'text/plain').send(BODY).expect(415),
        'unsupported_media_type',
      );
      envelope(
        await t.http
          .post('/api-keys')
          .set(bearer('sk_test_nobodyAaaaaaaaaaaaaaaaaaaaaaaaaaaaa'))
          .set('Content-Type', 'text/plain')
          .send(BODY)
          .expect(415),
        'unsupported_media_type',
      );
    });

    it('on GET routes too, where a JSON body is still read (and refused by field)', async () => {
      envelope(
        await t.http.get('/accounts').set(auth).set('Content-Type', 'text/plain').send('x').expect(415),
        'unsupported_media_type',
      );
      expect((await t.http.get('/accounts').set(auth).send({ x: 1 }).expect(400)).body.code).toBe('validation_error');
    });
  });

  describe('JSON routes take application/json and application/*+json', () => {
    it.each([
      'application/json',
      'application/json; charset=utf-8',
      'application/merchant+json',
      'application/vnd.api+json',
      'APPLICATION/Merchant+JSON; charset=UTF-8',
    ])('parses %s as JSON', async (type) => {
      const res = await t.http
        .post('/api-keys')
        .set(auth)
        .set('Content-Type', type)
        .send(JSON.stringify({ name: `via ${type}` }))
        .expect(201);
      expect(res.body.name).toBe(`via ${type}`);
    });

    it('checks a +json body like any JSON: malformed 400 invalid_json, unknown fields 400', async () => {
      expect(
        (
          await t.http
            .post('/api-keys')
            .set(auth)
            .set('Content-Type', 'application/merchant+json')
            .send('{"name":')
            .expect(400)
        ).body.code,
      ).toBe('invalid_json');
      expect(
        (
          await t.http
            .post('/api-keys')
            .set(auth)
            .set('Content-Type', 'application/merchant+json')
            .send('{"nope":1}')
            .expect(400)
        ).body.code,
      ).toBe('validation_error');
    });

    it('refuses application/+json and application/jsonx, which are not JSON types', async () => {
      await t.http.post('/api-keys').set(auth).set('Content-Type', 'application/+json').send('{}').expect(415);
      await t.http.post('/api-keys').set(auth).set('Content-Type', 'application/jsonx').send('{}').expect(415);
    });
  });

  describe('a request without a body stays valid where the route takes none, whatever its Content-Type', () => {
    let keyId: string;
    beforeAll(async () => {
      keyId = (await t.http.post('/api-keys').set(auth).send({ name: 'rotated' }).expect(201)).body.id;
    });

    it.each([undefined, 'text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data'])(
      'POST /api-keys/{id}/rotate with Content-Type %s and no body',
      async (type) => {
        const req = t.http.post(`/api-keys/${keyId}/rotate`).set(auth);
        if (type) req.set('Content-Type', type);
        const res = await req.expect(200);
        expect(res.body.key).toMatch(/^sk_test_/);
      },
    );

    it('also with neither Content-Length nor Transfer-Encoding (raw HTTP/1.1)', async () => {
      const server = t.app.getHttpServer() as Server;
      if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const head = [
        `POST /api-keys/${keyId}/rotate HTTP/1.1`,
        'Host: localhost',
        `Authorization: Bearer ${KEYS.sandbox}`,
        'Content-Type: text/plain',
        'Connection: close',
        '',
        '',
      ].join('\r\n');
      const answer = await new Promise<string>((resolve, reject) => {
        let text = '';
        const socket = connect(port, '127.0.0.1', () => socket.write(head));
        socket.on('data', (chunk) => (text += String(chunk)));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    });

    it('also with an explicit Content-Length: 0', async () => {
      await t.http
        .post(`/api-keys/${keyId}/rotate`)
        .set(auth)
        .set('Content-Type', 'text/plain')
        .set('Content-Length', '0')
        .expect(200);
    });
  });

  describe('nothing written when a money-moving body is refused', () => {
    it('POST /payment-intents/{id}/refunds with {"amount":100} as text/plain: 415, no refund (it would have refunded everything)', async () => {
      const { account } = await merchant(t);
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
      const before = await balance(t, account);
      const refunds = `/payment-intents/${intent.id}/refunds`;

      for (const type of [
        'text/plain',
        'application/xml',
        'multipart/form-data; boundary=x',
        'application/x-www-form-urlencoded',
      ]) {
        let res!: Response;
        expect(
          await wroteDuring(
            async () => (res = await t.http.post(refunds).set(auth).set('Content-Type', type).send('{"amount":100}')),
          ),
        ).toEqual([]);
        expect(res.status).toBe(415);
        envelope(res, 'unsupported_media_type');
      }
      expect((await t.http.get(refunds).set(auth).expect(200)).body.data).toEqual([]);
      const actionId = (await t.http.get(`/payment-intents/${intent.id}`).set(auth).expect(200)).body.intent_action_id;
      expect((await t.http.get(`/intent-actions/${actionId}`).set(auth).expect(200)).body.refunded_amount).toBe(0);
      expect(await balance(t, account)).toEqual(before);

      // The same body as JSON refunds exactly 100.
      expect((await t.http.post(refunds).set(auth).send({ amount: 100 }).expect(201)).body.amount).toBe(100);
      expect((await t.http.get(`/intent-actions/${actionId}`).set(auth).expect(200)).body.refunded_amount).toBe(100);
    });

    it('a sandbox card capture of 100 as text/plain: 415, the hold stays pending with its amount', async () => {
      const { account } = await holder(t);
      const cardId = (await virtualCard(t, account)).id;
      const held = (await authorize(t, cardId, { amount: 4_000, capture: false }).expect(201)).body.data;
      const before = await balance(t, account);
      const capture = `/sandbox/card-transactions/${held.id}/capture`;

      let res!: Response;
      expect(
        await wroteDuring(
          async () =>
            (res = await t.http.post(capture).set(auth).set('Content-Type', 'text/plain').send('{"amount":100}')),
        ),
      ).toEqual([]);
      expect(res.status).toBe(415);
      envelope(res, 'unsupported_media_type');
      const listed = (await t.http.get(`/card-transactions/${cardId}`).set(auth).expect(200)).body.data
        .payments as Array<{ id: string; status: string; amount: number }>;
      expect(listed.find((x) => x.id === held.id)).toMatchObject({ status: 'pending', amount: 4_000 });
      expect(await balance(t, account)).toEqual(before);

      // The same body as JSON captures exactly 100.
      expect((await t.http.post(capture).set(auth).send({ amount: 100 }).expect(200)).body.data).toMatchObject({
        id: held.id,
        status: 'successful',
        amount: 100,
      });
    });
  });

  describe('routes that take other bodies', () => {
    it('the document upload takes multipart only: JSON and forms 415 naming multipart/form-data', async () => {
      for (const send of [
        () => t.http.post('/documents/upload').set(auth).send({ key: 'identity' }),
        () => t.http.post('/documents/upload').set(auth).type('form').send('key=identity'),
      ]) {
        const res = await send().expect(415);
        envelope(res, 'unsupported_media_type');
        expect(res.body.message).toContain('Content-Type: multipart/form-data');
      }
      // Multipart reaches the route (which wants its file).
      const res = await t.http.post('/documents/upload').set(auth).field('key', 'identity').expect(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'file' })]);
    });

    it("the 3-D Secure page's POSTs take its HTML form (urlencoded), never text/plain", async () => {
      const action = 'ia_01ARZ3NDEKTSV4RRFFQ69G5FAV';
      const form = await t.http.post(`/3ds/${action}/approve`).type('form').send('csrf_token=x');
      expect(form.status).not.toBe(415);
      expect(form.status).toBeLessThan(500);
      envelope(
        await t.http.post(`/3ds/${action}/approve`).set('Content-Type', 'text/plain').send('csrf_token=x').expect(415),
        'unsupported_media_type',
      );
    });
  });

  describe('405 method_not_allowed with Allow, from the routes Nest registered', () => {
    it.each([
      ['put', '/accounts', ['GET', 'HEAD', 'OPTIONS', 'POST']],
      ['delete', '/accounts', ['GET', 'HEAD', 'OPTIONS', 'POST']],
      ['delete', '/transfers/trf_01ARZ3NDEKTSV4RRFFQ69G5FAV', ['GET', 'HEAD', 'OPTIONS']],
      ['put', '/accounts/acc_01ARZ3NDEKTSV4RRFFQ69G5FAV', ['GET', 'HEAD', 'OPTIONS']],
      ['get', '/transfer', ['OPTIONS', 'POST']],
      ['get', '/api-keys/key_x/rotate', ['OPTIONS', 'POST']],
      ['patch', '/ACCOUNTS/', ['GET', 'HEAD', 'OPTIONS', 'POST']],
    ] as const)('%s %s', async (method, path, allow) => {
      let res!: Response;
      expect(await wroteDuring(async () => (res = await t.http[method](path).set(auth).send({ amount: 1 })))).toEqual(
        [],
      );
      expect(res.status).toBe(405);
      envelope(res, 'method_not_allowed');
      expect(res.headers.allow.split(', ').sort()).toEqual([...allow].sort());
    });

    it('comes before authentication, and before the body is looked at', async () => {
      const res = await t.http.put('/accounts').set('Content-Type', 'text/plain').send('x').expect(405);
      envelope(res, 'method_not_allowed');
      expect(res.headers.allow).toContain('POST');
    });

    it('HEAD is served where GET is; OPTIONS answers 204 with Allow', async () => {
      await t.http.head('/accounts').set(auth).expect(200);
      await t.http.head('/accounts').expect(401);
      const options = await t.http.options('/accounts/acc_01ARZ3NDEKTSV4RRFFQ69G5FAV').expect(204);
      expect(options.headers.allow.split(', ').sort()).toEqual(['GET', 'HEAD', 'OPTIONS']);
    });

    it('unknown paths stay 404, whatever the method or body', async () => {
      envelope(await t.http.get('/nothing-here').set(auth).expect(404), 'not_found');
      envelope(await t.http.put('/accounts/acc_x/nothing').set(auth).expect(404), 'not_found');
      envelope(
        await t.http.post('/nothing-here').set(auth).set('Content-Type', 'text/plain').send('x').expect(404),
        'not_found',
      );
      await t.http.options('/nothing-here').expect(404);
    });
  });
});
