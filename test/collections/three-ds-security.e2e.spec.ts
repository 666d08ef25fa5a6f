import { openAccount } from '../accounts/accounts-helpers';
import { readyIndividual } from '../onboarding/fixtures';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import {
  card,
  cardAction,
  confirm,
  createIntent,
  encrypt,
  formTokenOf,
  intentBody,
  merchant,
  publicKeyOf,
  submitPage,
  UNKNOWN_IA,
} from './helpers';

const OPERATOR = 'op_' + 'y'.repeat(40);
const PUBLIC_BASE_URL = 'https://pay.example.com';

/**
 * Issue "A newcomer's first day", part 4: the 3-D Secure page takes only its own form
 * submissions (a per-action token and a same-origin check), sends headers that keep other sites
 * out, and `return_url` cannot send the customer anywhere private (docs/decisions/collections.md).
 */
describe('3-D Secure page: forms, headers and return_url (decisions §7)', () => {
  let t: TestApp;
  let account: string;
  let pem: string;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL, PAYMENTS_ADMIN_TOKEN: OPERATOR });
    ({ account } = await merchant(t));
    pem = await publicKeyOf(t);
  });
  afterAll(() => t.close());

  const pending = async (returnUrl = 'https://merchant.example/return?order=42') => {
    const intent = await createIntent(t, account);
    const action = (
      await confirm(t, intent.id, cardAction(encrypt(pem, card()), { return_url: returnUrl })).expect(201)
    ).body;
    expect(action.status).toBe('pending_user_action');
    return { intent: intent.id, action: action.id as string };
  };
  const read = async (path: string) => (await t.http.get(path).set(bearer(KEYS.sandbox)).expect(200)).body;

  describe('headers', () => {
    it('the open page: a CSP with form-action and frame-ancestors, nosniff, no referrer, no framing, no caching', async () => {
      const { action } = await pending();
      const page = await t.http.get(`/3ds/${action}`).expect(200);
      expect(page.headers['content-security-policy']).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' https://merchant.example; frame-ancestors 'none'; base-uri 'none'",
      );
      expect(page.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'x-frame-options': 'DENY',
        'cache-control': 'no-store',
      });
      expect(page.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
    });

    it('a page with nothing left to do allows no form target but itself; the 303 sends no referrer', async () => {
      const { action } = await pending();
      const decided = await submitPage(t, action).expect(303);
      expect(decided.headers['referrer-policy']).toBe('no-referrer');
      const used = await t.http.get(`/3ds/${action}`).expect(409);
      expect(used.headers['content-security-policy']).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
      expect(used.headers['x-content-type-options']).toBe('nosniff');
      const unknown = await t.http.get(`/3ds/${UNKNOWN_IA}`).expect(404);
      expect(unknown.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
    });

    it('an http loopback return_url (sandbox) is named in form-action by its origin', async () => {
      const { action } = await pending('http://127.0.0.1:8080/back');
      const page = await t.http.get(`/3ds/${action}`).expect(200);
      expect(page.headers['content-security-policy']).toContain("form-action 'self' http://127.0.0.1:8080;");
    });
  });

  describe('form token and same-origin check', () => {
    it('each form carries the action’s token; the page’s own POST with it redirects to return_url', async () => {
      const { intent, action } = await pending();
      const page = await t.http.get(`/3ds/${action}`).expect(200);
      const tokens = [...page.text.matchAll(/<input type="hidden" name="csrf_token" value="([^"]+)">/g)].map(
        (m) => m[1],
      );
      expect(tokens).toEqual([formTokenOf(t, action), formTokenOf(t, action)]);
      expect(tokens[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const other = await pending();
      expect(formTokenOf(t, other.action)).not.toBe(tokens[0]);

      const res = await submitPage(t, action, 'approve', tokens[0]).expect(303);
      const back = new URL(res.headers.location);
      expect(`${back.origin}${back.pathname}`).toBe('https://merchant.example/return');
      expect(Object.fromEntries(back.searchParams)).toEqual({
        order: '42',
        payment_intent_id: intent,
        intent_action_id: action,
        status: 'completed',
      });
    });

    it('accepts an Origin naming the public base URL or the request’s own host, and a client that sends neither header', async () => {
      const viaBase = await pending();
      await t.http
        .post(`/3ds/${viaBase.action}/approve`)
        .set({ Origin: PUBLIC_BASE_URL, 'Sec-Fetch-Site': 'same-origin' })
        .type('form')
        .send({ csrf_token: formTokenOf(t, viaBase.action) })
        .expect(303);
      const viaHost = await pending();
      await t.http
        .post(`/3ds/${viaHost.action}/fail`)
        .set({ Host: 'api.internal:3000', Origin: 'http://api.internal:3000' })
        .type('form')
        .send({ csrf_token: formTokenOf(t, viaHost.action) })
        .expect(303);
      const plain = await pending();
      await t.http
        .post(`/3ds/${plain.action}/approve`)
        .type('form')
        .send({ csrf_token: formTokenOf(t, plain.action) })
        .expect(303);
    });

    it.each<
      [
        string,
        (action: string, other: string) => { headers: Record<string, string>; form: Record<string, string> | null },
        string,
      ]
    >([
      [
        'no token',
        () => ({ headers: { 'Sec-Fetch-Site': 'same-origin', Origin: 'null' }, form: null }),
        'invalid_form_token',
      ],
      [
        'an empty token',
        () => ({ headers: { 'Sec-Fetch-Site': 'same-origin' }, form: { csrf_token: '' } }),
        'invalid_form_token',
      ],
      [
        'a wrong token',
        (a) => ({
          headers: { 'Sec-Fetch-Site': 'same-origin' },
          form: { csrf_token: formTokenOf(t, a).replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) },
        }),
        'invalid_form_token',
      ],
      [
        "another action's token",
        (_a, other) => ({ headers: { 'Sec-Fetch-Site': 'same-origin' }, form: { csrf_token: formTokenOf(t, other) } }),
        'invalid_form_token',
      ],
      [
        'a cross-site Origin, right token',
        (a) => ({ headers: { Origin: 'https://evil.example' }, form: { csrf_token: formTokenOf(t, a) } }),
        'cross_site_request',
      ],
      [
        'Sec-Fetch-Site cross-site, right token',
        (a) => ({
          headers: { 'Sec-Fetch-Site': 'cross-site', Origin: 'null' },
          form: { csrf_token: formTokenOf(t, a) },
        }),
        'cross_site_request',
      ],
      [
        'Sec-Fetch-Site same-site, right token',
        (a) => ({ headers: { 'Sec-Fetch-Site': 'same-site' }, form: { csrf_token: formTokenOf(t, a) } }),
        'cross_site_request',
      ],
      [
        'an Origin on another port of the same host, right token',
        (a) => ({ headers: { Origin: 'https://pay.example.com:8443' }, form: { csrf_token: formTokenOf(t, a) } }),
        'cross_site_request',
      ],
    ])('refuses %s with 403 in the error envelope, and the action is unchanged', async (_what, request, code) => {
      const { intent, action } = await pending();
      const other = await pending();
      const [actionBefore, intentBefore] = [
        await read(`/intent-actions/${action}`),
        await read(`/payment-intents/${intent}`),
      ];
      for (const button of ['approve', 'fail']) {
        const { headers, form } = request(action, other.action);
        const post = t.http.post(`/3ds/${action}/${button}`).set(headers);
        const res = await (form ? post.type('form').send(form) : post).expect(403);
        expect(res.body).toEqual({ status: 'error', code, message: expect.any(String), errors: [] });
      }
      expect(await read(`/intent-actions/${action}`)).toEqual(actionBefore);
      expect(await read(`/payment-intents/${intent}`)).toEqual(intentBefore);
      // Still open: the customer's own submission goes through afterwards.
      await t.http.get(`/3ds/${action}`).expect(200);
      await submitPage(t, action).expect(303);
    });

    it('refuses before looking the action up: an unknown id without a token is 403, with its token 404', async () => {
      expect((await t.http.post(`/3ds/${UNKNOWN_IA}/approve`).expect(403)).body.code).toBe('invalid_form_token');
      await submitPage(t, UNKNOWN_IA).expect(404);
    });

    it('the token survives a restart (it is derived from the master key, nothing is stored)', async () => {
      const { action } = await pending();
      const token = formTokenOf(t, action);
      t = await t.restart();
      expect(formTokenOf(t, action)).toBe(token);
      await submitPage(t, action, 'approve', token).expect(303);
    });
  });

  describe('return_url', () => {
    let live: string;
    let livePem: string;

    beforeAll(async () => {
      const entity = await readyIndividual(t, {}, KEYS.live);
      await t.http.post('/onboarding-submissions').set(bearer(KEYS.live)).send({ entity_id: entity.id }).expect(200);
      await t.http
        .post(`/admin/entities/${entity.id}/review`)
        .set(bearer(OPERATOR))
        .send({ decision: 'approved' })
        .expect(200);
      live = (await openAccount(t, KEYS.live, { entity_id: entity.id, currency: 'USD' })).id;
      livePem = await publicKeyOf(t, KEYS.live);
    });

    /** The confirmation's answer (awaited: a supertest request is thenable). */
    const attempt = async (mode: 'sandbox' | 'live', returnUrl: string) => {
      const [key, acc, keyPem] = mode === 'live' ? [KEYS.live, live, livePem] : [KEYS.sandbox, account, pem];
      const intent = await createIntent(t, acc, {}, key);
      return confirm(t, intent.id, cardAction(encrypt(keyPem, card()), { return_url: returnUrl }), key);
    };

    it.each([
      ['live', 'https://merchant.example/return'],
      ['live', 'https://shop.example.co.uk:8443/3ds/back?cart=1#done'],
      ['live', 'https://93.184.215.14/return'],
      ['sandbox', 'https://merchant.example/return'],
      ['sandbox', 'http://localhost:3000/return'],
      ['sandbox', 'https://localhost/return'],
      ['sandbox', 'http://shop.localhost:8080/return'],
      ['sandbox', 'http://127.0.0.1:8080/return'],
      ['sandbox', 'http://127.8.9.10/return'],
      ['sandbox', 'http://[::1]:3000/return'],
    ] as const)('%s accepts %s', async (mode, url) => {
      const res = await attempt(mode, url);
      expect([res.status, res.body.return_url]).toEqual([201, url]);
    });

    it.each([
      ['live', 'http://merchant.example/return', 'https'],
      ['live', 'http://localhost:3000/return', 'https'],
      ['live', 'https://localhost/return', 'non-public'],
      ['live', 'https://shop.localhost/return', 'non-public'],
      ['live', 'https://127.0.0.1/return', 'non-public'],
      ['live', 'https://[::1]/return', 'non-public'],
      ['live', 'https://[::ffff:127.0.0.1]/return', 'non-public'],
      ['live', 'https://10.0.0.5/return', 'non-public'],
      ['live', 'https://192.168.1.10/return', 'non-public'],
      ['live', 'https://172.16.0.1/return', 'non-public'],
      ['live', 'https://169.254.169.254/latest', 'non-public'],
      ['live', 'https://100.64.0.1/return', 'non-public'],
      ['live', 'https://[fd00::1]/return', 'non-public'],
      ['live', 'https://intranet/return', 'non-public'],
      ['live', 'https://printer.local/return', 'non-public'],
      ['live', 'https://router.home.arpa/return', 'non-public'],
      ['live', 'https://user:secret@merchant.example/return', 'user name'],
      ['sandbox', 'http://merchant.example/return', 'https'],
      ['sandbox', 'https://10.0.0.5/return', 'non-public'],
      ['sandbox', 'http://192.168.1.10/return', 'https'],
      ['sandbox', 'https://printer.local/return', 'non-public'],
      ['sandbox', 'https://user:secret@localhost/return', 'user name'],
      ['sandbox', 'ftp://merchant.example/return', 'http or https'],
    ] as const)('%s refuses %s with 400 naming return_url', async (mode, url, why) => {
      const res = await attempt(mode, url);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        status: 'error',
        code: 'validation_error',
        errors: [{ field: 'intent_action.return_url', message: expect.stringContaining(why) }],
      });
    });

    it('create-and-confirm refuses it too, and writes nothing (no intent, the reference stays free)', async () => {
      const plain = intentBody(live);
      const body = {
        ...plain,
        intent_action: cardAction(encrypt(livePem, card()), { return_url: 'https://127.0.0.1/return' }),
      };
      const refused = await t.http.post('/payment-intents').set(bearer(KEYS.live)).send(body).expect(400);
      expect(refused.body.errors[0].field).toBe('intent_action.return_url');
      await t.http.post('/payment-intents').set(bearer(KEYS.live)).send(plain).expect(201);
    });
  });
});
