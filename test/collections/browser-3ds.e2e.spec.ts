import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import { balanceOf, CARD_FEE, card, cardAction, confirm, createIntent, encrypt, merchant, publicKeyOf } from './helpers';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** A port nobody holds now, so PUBLIC_BASE_URL can name it before the app starts. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

/** The merchant's return page: records the query the browser arrives with. */
async function returnSite(): Promise<{ server: Server; url: string; visits: URLSearchParams[] }> {
  const visits: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    visits.push(new URL(req.url ?? '/', 'http://localhost').searchParams);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Merchant</title><p id="back">Back at the shop</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/return`, visits };
}

/**
 * Decisions §7 in a real browser: Debian's chromium (installed by .ci/run) driven by playwright-core,
 * JavaScript off, so the page must work as plain HTML forms. Without chromium this fails and says how
 * to install it: a skipped browser test would hide that the 3-D Secure page was never exercised.
 */
describe('3-D Secure page in Chromium', () => {
  let t: TestApp;
  let site: Awaited<ReturnType<typeof returnSite>>;
  let browser: BrowserContext;
  let profile: string;
  let account: string;
  let pem: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: install it (apt-get install -y chromium, as .ci/run does) or set CHROMIUM_PATH`);
    const port = await freePort();
    t = await startTestApp({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    await t.app.listen(port, '127.0.0.1');
    site = await returnSite();
    ({ account } = await merchant(t));
    pem = await publicKeyOf(t);
    profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
    browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, javaScriptEnabled: false });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await new Promise((r) => site?.server.close(r));
    await t?.close();
  });

  async function pendingAction() {
    const intent = await createIntent(t, account);
    const action = (await confirm(t, intent.id, cardAction(encrypt(pem, card()), { return_url: site.url })).expect(201)).body;
    expect(action).toMatchObject({ status: 'pending_user_action', requires_action: true });
    return { intent: intent.id, action: action.id as string, url: action.next_action.url as string };
  }

  it.each([
    ['#approve', 'completed'],
    ['#fail', 'failed'],
  ])('clicking %s lands on return_url with the decided query; the intent reads %s', async (button, status) => {
    const before = await balanceOf(t, account);
    const { intent, action, url } = await pendingAction();
    const page = await browser.newPage();
    await page.goto(url);
    expect(await page.textContent('body')).toContain('USD 100.00 with the card ending in 4242');
    await Promise.all([page.waitForURL((u) => u.toString().startsWith(site.url)), page.click(button)]);
    expect(await page.textContent('#back')).toBe('Back at the shop');
    const query = Object.fromEntries(new URL(page.url()).searchParams);
    expect(query).toEqual({ payment_intent_id: intent, intent_action_id: action, status });
    expect((await t.http.get(`/payment-intents/${intent}`).set(bearer(KEYS.sandbox)).expect(200)).body.status).toBe(status);
    const credit = status === 'completed' ? 10_000 - CARD_FEE : 0;
    expect(await balanceOf(t, account)).toEqual({ available: before.available + credit, current: before.current + credit });

    // The page is used now: opening it again says so, and its buttons are gone.
    await page.goto(url);
    expect(await page.textContent('#state')).toContain('already been completed');
    expect(await page.$(button)).toBeNull();
    await page.close();
  }, 60_000);

  it('a page whose action was already decided by API says so, and posting to it acts on nothing', async () => {
    const { intent, action, url } = await pendingAction();
    await t.http.post(`/sandbox/intent-actions/${action}/authenticate`).set(bearer(KEYS.sandbox)).send({ result: 'failure' }).expect(200);
    const page = await browser.newPage();
    await page.goto(url);
    expect(await page.getAttribute('#state', 'data-state')).toBe('used');
    const replay = await page.request.post(`${url}/approve`, { maxRedirects: 0 });
    expect(replay.status()).toBe(409);
    expect((await t.http.get(`/payment-intents/${intent}`).set(bearer(KEYS.sandbox))).body.status).toBe('failed');
    await page.close();
  }, 60_000);
});
