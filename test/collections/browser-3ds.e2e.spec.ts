import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve, sep } from 'node:path';
import { launchChromium, type Browser } from '../support/browser';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import {
  balanceOf,
  CARD_FEE,
  card,
  cardAction,
  confirm,
  createIntent,
  encrypt,
  merchant,
  publicKeyOf,
} from './helpers';

/** A port nobody holds now, so PUBLIC_BASE_URL can name it before the app starts. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

/**
 * The merchant's return page: records the query the browser arrives with. At /attack?target=…&token=…
 * it serves another site's form posting to the 3-D Secure page, token and all.
 */
async function returnSite(): Promise<{ server: Server; port: number; url: string; visits: URLSearchParams[] }> {
  const visits: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/attack') {
      const target = url.searchParams.get('target')!.replace(/"/g, '');
      const token = url.searchParams.get('token')!.replace(/"/g, '');
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<!doctype html><title>Not the bank</title><form method="post" action="${target}"><input type="hidden" name="csrf_token" value="${token}"><button id="go">Win a prize</button></form>`,
        );
      return;
    }
    visits.push(url.searchParams);
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>Merchant</title><p id="back">Back at the shop</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { server, port, url: `http://127.0.0.1:${port}/return`, visits };
}

/**
 * Decisions §7 in a real browser: the Chromium that `npm ci` installs (@sparticuz/chromium, see
 * test/support/browser.ts) driven by playwright-core, JavaScript off, so the page must work as
 * plain HTML forms. If the browser cannot start, this fails: a skipped browser test would hide
 * that the 3-D Secure page was never exercised.
 */
describe('3-D Secure page in Chromium', () => {
  let t: TestApp;
  let site: Awaited<ReturnType<typeof returnSite>>;
  let browser: Browser;
  let account: string;
  let pem: string;

  beforeAll(async () => {
    browser = await launchChromium({ javaScriptEnabled: false });
    const port = await freePort();
    t = await startTestApp({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    await t.app.listen(port, '127.0.0.1');
    site = await returnSite();
    ({ account } = await merchant(t));
    pem = await publicKeyOf(t);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (site) await new Promise((r) => site.server.close(r));
    await t?.close();
  });

  async function pendingAction() {
    const intent = await createIntent(t, account);
    const action = (await confirm(t, intent.id, cardAction(encrypt(pem, card()), { return_url: site.url })).expect(201))
      .body;
    expect(action).toMatchObject({ status: 'pending_user_action', requires_action: true });
    return { intent: intent.id, action: action.id as string, url: action.next_action.url as string };
  }

  const actionStatus = async (action: string) =>
    (await t.http.get(`/intent-actions/${action}`).set(bearer(KEYS.sandbox)).expect(200)).body.status as string;

  it('is the Chromium npm installed, not a system browser (unless CHROMIUM_PATH names one)', () => {
    if (process.env.CHROMIUM_PATH) expect(browser.executablePath).toBe(process.env.CHROMIUM_PATH);
    else expect(browser.executablePath.startsWith(resolve(__dirname, '../../node_modules') + sep)).toBe(true);
    expect(browser.context.browser()?.version()).toMatch(/^\d+\./);
  });

  it.each([
    ['#approve', 'completed'],
    ['#fail', 'failed'],
  ])(
    'clicking %s lands on return_url with the decided query; the intent reads %s',
    async (button, status) => {
      const before = await balanceOf(t, account);
      const { intent, action, url } = await pendingAction();
      const page = await browser.context.newPage();
      const response = await page.goto(url);
      expect(response?.headers()['content-security-policy']).toContain("form-action 'self'");
      expect(await page.textContent('body')).toContain('USD 100.00 with the card ending in 4242');
      await Promise.all([page.waitForURL((u) => u.toString().startsWith(site.url)), page.click(button)]);
      expect(await page.textContent('#back')).toBe('Back at the shop');
      const query = Object.fromEntries(new URL(page.url()).searchParams);
      expect(query).toEqual({ payment_intent_id: intent, intent_action_id: action, status });
      expect((await t.http.get(`/payment-intents/${intent}`).set(bearer(KEYS.sandbox)).expect(200)).body.status).toBe(
        status,
      );
      const credit = status === 'completed' ? 10_000 - CARD_FEE : 0;
      expect(await balanceOf(t, account)).toEqual({
        available: before.available + credit,
        current: before.current + credit,
      });

      // The page is used now: opening it again says so, and its buttons are gone.
      await page.goto(url);
      expect(await page.textContent('#state')).toContain('already been completed');
      expect(await page.$(button)).toBeNull();
      await page.close();
    },
    60_000,
  );

  it('a page whose action was already decided by API says so, and posting its form again acts on nothing', async () => {
    const { intent, action, url } = await pendingAction();
    const page = await browser.context.newPage();
    await page.goto(url);
    const token = await page.getAttribute('form[action$="/approve"] input[name="csrf_token"]', 'value');
    await t.http
      .post(`/sandbox/intent-actions/${action}/authenticate`)
      .set(bearer(KEYS.sandbox))
      .send({ result: 'failure' })
      .expect(200);
    await page.goto(url);
    expect(await page.getAttribute('#state', 'data-state')).toBe('used');
    const replay = await page.request.post(`${url}/approve`, { form: { csrf_token: token! }, maxRedirects: 0 });
    expect(replay.status()).toBe(409);
    expect((await t.http.get(`/payment-intents/${intent}`).set(bearer(KEYS.sandbox))).body.status).toBe('failed');
    await page.close();
  }, 60_000);

  it("another site's form posting to the page, with the page's own token, is refused (403) and changes nothing", async () => {
    const { intent, action, url } = await pendingAction();
    const intentBefore = (await t.http.get(`/payment-intents/${intent}`).set(bearer(KEYS.sandbox)).expect(200)).body;
    const page = await browser.context.newPage();
    await page.goto(url);
    const token = (await page.getAttribute('form[action$="/approve"] input[name="csrf_token"]', 'value'))!;
    // localhost and 127.0.0.1 are different sites.
    const attack = `http://localhost:${site.port}/attack?target=${encodeURIComponent(`${url}/approve`)}&token=${encodeURIComponent(token)}`;
    await page.goto(attack);
    const [refused] = await Promise.all([page.waitForResponse((r) => r.url() === `${url}/approve`), page.click('#go')]);
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toEqual({
      status: 'error',
      code: 'cross_site_request',
      message: expect.any(String),
      errors: [],
    });
    expect(await actionStatus(action)).toBe('pending_user_action');
    expect((await t.http.get(`/payment-intents/${intent}`).set(bearer(KEYS.sandbox))).body).toEqual(intentBefore);
    await page.close();
  }, 60_000);
});
