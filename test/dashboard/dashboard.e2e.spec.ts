import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from '../support/browser';
import { builtDashboard } from '../support/dashboard-build';
import { bearer, KEYS, type TestApp } from '../support/test-app';
import { advance, BANK_USD, payer, paymentDetail, post, transferBody } from '../transfers/helpers';
import { authorize, virtualCard } from '../cards/helpers';
import { confirm, createIntent, walletAction } from '../collections/helpers';
import { Receiver } from '../webhooks/receiver';
import { eventually, fastWorkerEnv, logsOf, requireTestCa, startWebhookApp, webhookTo } from '../webhooks/webhooks-helpers';
import { DASHBOARD_CSP } from '../../apps/api/src/dashboard/dashboard.controller';

/**
 * What page.evaluate runs is in the browser; this file is compiled with Node's types only (no DOM
 * lib, which would change Node's globals for the whole program), so the page's globals are untyped here.
 */
type InPage = any;
declare const document: InPage, sessionStorage: InPage, localStorage: InPage, getComputedStyle: InPage;

/** Screenshots land here (gitignored), for a person to look at what the test saw. */
const OUTPUT = resolve(__dirname, '..', '..', 'test-output');

/**
 * The dashboard (issue 22, part 5) in the Chromium `npm ci` installs, JavaScript on, served by the
 * API from a Vite build of apps/dashboard (built by this test when the sources changed): sign in
 * with an API key, an account with funded and paid-out money and its balance chart, the ledger, a
 * transfer's timeline, a failed webhook delivery and the receiver's answer, sandbox and live
 * visibly apart; no CSP violation and no key anywhere but the tab's session storage.
 */
describe('dashboard in Chromium', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let receiver: Receiver;
  let restoreEnv: () => void;
  let page: Page;
  const problems: string[] = [];
  const world = {} as { entity: string; account: string; transfer: string; webhook: string };

  beforeAll(async () => {
    requireTestCa();
    restoreEnv = fastWorkerEnv();
    const [dir, chromium] = await Promise.all([builtDashboard(), launchChromium()]);
    browser = chromium;
    receiver = await Receiver.start();
    // The receiver fails every delivery: the dashboard shows the attempts and what it answered.
    receiver.responder = () => ({ status: 500 });
    t = await startWebhookApp({ DASHBOARD_DIR: dir });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;

    const p = await payer(t, 'USD', 150_000);
    const webhook = await webhookTo(t, receiver, '/fail', { entity_id: p.entity, enabled_events: { outflows: ['created', 'completed'] } });
    const detail = await paymentDetail(t, p.counterparty, BANK_USD);
    const transfer = (await post(t, transferBody(p.account, detail, { amount: 50_000, unique_reference: 'payout-0042' })).expect(201)).body.id as string;
    await advance(t, transfer, { to: 'processing' }).expect(200);
    await advance(t, transfer, { to: 'successful' }).expect(200);
    const card = await virtualCard(t, p.account);
    await authorize(t, card.id, { amount: 1_250 }).expect(201);
    const intent = await createIntent(t, p.account);
    await confirm(t, intent.id, walletAction()).expect(201);
    await eventually(
      () => logsOf(t, p.entity, { status: 'failed' }),
      (logs) => logs.some((l) => l.event === 'outflows.completed' && l.response?.status_code === 500),
    );
    await t.settle();
    Object.assign(world, { entity: p.entity, account: p.account, transfer, webhook: webhook.id });

    page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    // A CSP violation, a script error or a failed request shows up here (Chromium logs them as console errors).
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    mkdirSync(OUTPUT, { recursive: true });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
    restoreEnv?.();
  });

  const text = (selector: string) => page.locator(selector).innerText();

  it('serves the page from local files with a strict Content-Security-Policy', async () => {
    const res = (await page.goto(`${base}/dashboard`))!;
    expect(res.status()).toBe(200);
    const headers = res.headers();
    expect(headers['content-security-policy']).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).toContain("script-src 'self'");
    expect(DASHBOARD_CSP).toContain("connect-src 'self'");
    expect(DASHBOARD_CSP).not.toContain('unsafe');
    expect(headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY', 'cache-control': 'no-store' });
    // Every script and style sheet is a file of this origin: nothing inline, no CDN.
    const sources = await page.evaluate(() =>
      [...document.querySelectorAll('script, link[rel=stylesheet], link[rel=icon]')].map((e: InPage) => ({
        src: String(e.src || e.href),
        inline: !e.src && !e.href,
      })),
    );
    expect(sources.length).toBeGreaterThanOrEqual(3);
    for (const s of sources) expect([s.inline, s.src.startsWith(`${base}/dashboard/assets/`)]).toEqual([false, true]);
    const asset = await t.http.get(new URL(sources[0].src).pathname).expect(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    await page.waitForSelector('#sign-in');
  });

  it('signs in with an API key kept in the tab’s session storage only', async () => {
    await page.fill('#api-key', 'not a key');
    await page.click('#sign-in button[type=submit]');
    expect(await text('#sign-in-error')).toContain('starts sk_test_ or sk_live_');
    await page.fill('#api-key', KEYS.sandbox);
    await page.click('#sign-in button[type=submit]');
    await page.waitForSelector('#mode-banner.banner-sandbox');
    expect(await text('#mode-banner')).toMatch(/^SANDBOX\s+· test data/);
    const stored = await page.evaluate(() => ({ session: Object.keys(sessionStorage), local: localStorage.length, cookie: document.cookie }));
    expect(stored).toEqual({ session: ['payments-dashboard.api-key'], local: 0, cookie: '' });
    expect(await browser.context.cookies()).toEqual([]);
  });

  it('opens an account with funded and paid-out money: its balance chart and statement', async () => {
    await page.click('nav a[data-nav=accounts]');
    await page.click(`#accounts a[href="#/accounts/${world.account}"]`);
    await page.waitForSelector('#balance-chart canvas');
    await page.waitForSelector('#statement');
    // 1 500.00 funded, 500.00 paid out with a 1.25 fee, 12.50 spent by card, 100.00 collected less a 2.50 fee.
    expect(await text('#balance-current')).toBe('1,083.75 USD');
    expect(await text('#balance-available')).toBe('1,083.75 USD');
    const rows = await page.locator('#statement tbody tr').allInnerTexts();
    expect(rows.join('\n')).toMatch(/credit\s+1,500\.00 USD/);
    expect(rows.join('\n')).toMatch(/hold\s+501\.25 USD/);
    expect(rows.join('\n')).toMatch(/debit\s+501\.25 USD/);
    expect(rows.join('\n')).toMatch(/debit\s+12\.50 USD/);
    expect(rows.join('\n')).toMatch(/credit\s+97\.50 USD\s+2\.50 USD/);
    // The chart is drawn: the canvas has ink, and both series are in its legend.
    const ink = await page.evaluate(() => {
      const canvas = document.querySelector('#balance-chart canvas');
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      let painted = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
      return { painted, width: canvas.width, height: canvas.height };
    });
    expect(ink.width).toBeGreaterThan(300);
    expect(ink.painted).toBeGreaterThan(1_000);
    expect(await text('#balance-chart .u-legend')).toMatch(/current[^]*available/i);
    await page.screenshot({ path: join(OUTPUT, 'dashboard.png'), fullPage: true });
  });

  it('shows the ledger per currency, balanced', async () => {
    await page.click('nav a[data-nav=ledger]');
    await page.waitForSelector('#ledger-currencies');
    const usd = await page.locator('#ledger-currencies tbody tr', { hasText: 'USD' }).innerText();
    const books = (await t.http.get('/ledger').set(bearer(KEYS.sandbox)).expect(200)).body.data.currencies.find((c: { currency: string }) => c.currency === 'USD');
    const amount = (minor: number) => `${(minor / 100).toLocaleString('en', { minimumFractionDigits: 2 })} USD`;
    expect(books.debits_posted).toBe(books.credits_posted);
    expect(usd.split('\t')).toEqual(['USD', amount(books.debits_posted), amount(books.credits_posted), '0.00 USD', '0.00 USD', 'balanced']);
    const accounts = await page.locator('#ledger-accounts tbody tr').allInnerTexts();
    expect(accounts.some((row) => row.startsWith('fees:USD'))).toBe(true);
    expect(accounts.some((row) => row.startsWith('clearing:bank-transfer:USD') && row.includes('500.00 USD'))).toBe(true);
  });

  it("shows a transfer's timeline", async () => {
    await page.goto(`${base}/dashboard#/accounts/${world.account}`);
    await page.click(`#statement a[href="#/entities/${world.entity}/transfers/${world.transfer}"]`);
    await page.waitForSelector('#timeline');
    expect(await page.locator('#timeline > li').evaluateAll((items) => items.map((li) => (li as InPage).dataset.type))).toEqual(['TransferCreated', 'TransferProcessing', 'TransferSucceeded']);
    expect(await text('#timeline')).toContain('status successful');
    expect(await text('h1')).toMatch(/^Transfer payout-0042\s+successful$/);
  });

  it('opens a failed webhook delivery and reads the receiver’s answer', async () => {
    await page.click(`a[href="#/entities/${world.entity}"]`);
    await page.waitForSelector('#deliveries table');
    expect(await page.locator('#webhooks tbody tr').innerText()).toMatch(/\/fail\s+active\s+\d+\s+0\s+\d+\s+500/);
    await page.selectOption('#delivery-status', 'failed');
    await page.waitForFunction(() => [...document.querySelectorAll('#deliveries tbody tr')].every((r) => r.textContent!.includes('failed')));
    await page.locator('#deliveries tbody tr', { hasText: 'outflows.completed' }).first().locator('.open-delivery').click();
    await page.waitForSelector('#delivery-detail .delivery');
    expect(await text('#delivery-detail .response-status')).toBe('Status 500');
    expect(await text('#delivery-detail .response-body')).toMatch(/^answer \d+ from \/fail$/);
    expect(JSON.parse(await text('#delivery-detail .request-body'))).toMatchObject({ event: 'outflows.completed', data: { id: world.transfer, status: 'successful' } });
    // Signatures are never shown.
    expect(await text('#delivery-detail')).toMatch(/webhook-signature\s+\*\*\*/);
    await page.locator('#delivery-detail').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUTPUT, 'dashboard-webhook-delivery.png'), fullPage: true });
  });

  it('resends a failed delivery and shows its new attempt (decisions §15)', async () => {
    // Only an ended delivery can be resent: wait until outflows.completed has had its three attempts.
    const ended = await eventually(
      () => logsOf(t, world.entity, { event: 'outflows.completed' }),
      (logs) => logs.some((l) => l.attempt === 3),
    );
    const last = ended.find((l) => l.attempt === 3)!;
    await page.goto(`${base}/dashboard#/entities/${world.entity}`);
    await page.waitForSelector('#deliveries table');
    await page.locator(`#deliveries .resend-delivery[data-id="${last.id}"]`).click();
    await page.waitForFunction(() => /attempt 4/.test(document.querySelector('#resend-status')?.textContent ?? ''));
    expect(await text('#resend-status')).toMatch(new RegExp(`^Resent ${last.event_id}: attempt 4\\s+failed$`));
    await page.waitForSelector('#deliveries tbody tr:has-text("outflows.completed") >> text=/^4$/');
    const resent = (await logsOf(t, world.entity, { event: 'outflows.completed' })).filter((l) => l.event_id === last.event_id);
    expect(resent.map((l) => l.attempt)).toEqual([4, 3, 2, 1]);
    expect(resent[0].request.body).toBe(last.request.body);
  });

  it("shows any resource's event history, payment intents and cards (last four only)", async () => {
    await page.click('nav a[data-nav=history]');
    await page.fill('#history-id', world.account);
    await page.click('form.filters button');
    await page.waitForSelector('#timeline');
    expect(await page.locator('#timeline > li').first().getAttribute('data-type')).toBe('AccountOpened');
    await page.click('nav a[data-nav=payment-intents]');
    await page.waitForSelector('#payment-intents tbody tr');
    expect(await text('#payment-intents')).toContain('completed');
    await page.goto(`${base}/dashboard#/entities/${world.entity}`);
    await page.waitForSelector('#cards tbody tr');
    expect(await text('#cards')).toMatch(/•••• \d{4}/);
    await page.click('#cards a');
    await page.waitForSelector('#card-transactions');
    expect(await text('#card-transactions')).toContain('12.50 USD');
    // The card's number is nowhere on the page, and the page never asked for it.
    const number = (await t.http.get(`/card-details/${(await t.http.get(`/cards?entity_id=${world.entity}`).set(bearer(KEYS.sandbox))).body.data.cards[0].id}`).set(bearer(KEYS.sandbox))).body.data
      .number as string;
    expect(await page.content()).not.toContain(number);
  });

  it('shows live in another colour, and signs out', async () => {
    const sandboxColour = await page.locator('#mode-banner').evaluate((e) => getComputedStyle(e).backgroundColor);
    await page.click('#sign-out');
    await page.waitForSelector('#sign-in');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await text('#sign-in-error')).toBe('');
    await page.fill('#api-key', KEYS.live);
    await page.click('#sign-in button[type=submit]');
    await page.waitForSelector('#mode-banner.banner-live');
    expect(await text('#mode-banner')).toMatch(/^LIVE\s+· real money/);
    const liveColour = await page.locator('#mode-banner').evaluate((e) => getComputedStyle(e).backgroundColor);
    expect(liveColour).not.toBe(sandboxColour);
    expect(await page.title()).toMatch(/^LIVE/);
    // The live world has none of the sandbox world's accounts.
    await page.click('nav a[data-nav=accounts]');
    await page.waitForSelector('#accounts');
    expect(await page.content()).not.toContain(world.account);
  });

  it('met no CSP violation, script error or failed request', () => {
    expect(problems).toEqual([]);
  });
});
