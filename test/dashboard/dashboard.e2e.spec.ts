import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from '../support/browser';
import { builtDashboard } from '../support/dashboard-build';
import { bearer, KEYS, type TestApp } from '../support/test-app';
import { advance, BANK_USD, payer, paymentDetail, post, transferBody } from '../transfers/helpers';
import { authorize, holder, virtualCard } from '../cards/helpers';
import { AuthorizationEndpoint } from '../cards/authorization-endpoint';
import { confirm, createIntent, walletAction } from '../collections/helpers';
import { Receiver } from '../webhooks/receiver';
import {
  eventually,
  fastWorkerEnv,
  logsOf,
  requireTestCa,
  startWebhookApp,
  webhookTo,
} from '../webhooks/webhooks-helpers';
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
  const world = {} as {
    entity: string;
    account: string;
    transfer: string;
    webhook: string;
    counterparty: string;
    intent: string;
    card: string;
    entity2: string;
    transfers2: string[];
  };

  beforeAll(async () => {
    requireTestCa();
    restoreEnv = fastWorkerEnv();
    const [dir, chromium] = await Promise.all([builtDashboard(), launchChromium()]);
    browser = chromium;
    receiver = await Receiver.start();
    // The receiver fails every delivery: the dashboard shows the attempts and what it answered.
    receiver.responder = () => ({ status: 500 });
    // Checkpoints signed soon after the log grows: an event's page reads its position from its proof.
    t = await startWebhookApp({ DASHBOARD_DIR: dir, AUDIT_CHECKPOINT_INTERVAL_MS: '300' });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;

    const p = await payer(t, 'USD', 150_000);
    const webhook = await webhookTo(t, receiver, '/fail', {
      entity_id: p.entity,
      enabled_events: { outflows: ['created', 'completed'] },
    });
    const detail = await paymentDetail(t, p.counterparty, BANK_USD);
    const transfer = (
      await post(t, transferBody(p.account, detail, { amount: 50_000, unique_reference: 'payout-0042' })).expect(201)
    ).body.id as string;
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
    // A second entity with more transfers than a page: the organization-wide lists merge both entities' lists.
    const p2 = await payer(t, 'USD', 100_000);
    const detail2 = await paymentDetail(t, p2.counterparty, BANK_USD);
    const transfers2: string[] = [];
    // Refused by the network (pending → failed): nothing stays held, so the ledger has no pending amounts.
    for (let i = 0; i < 30; i++) {
      const id = (
        await post(
          t,
          transferBody(p2.account, detail2, {
            amount: 100 + i,
            description: `Rent ${i}`,
            unique_reference: `rent-${i}`,
          }),
        ).expect(201)
      ).body.id as string;
      await advance(t, id, { to: 'failed' }).expect(200);
      transfers2.push(id);
    }
    await t.settle();
    Object.assign(world, {
      entity: p.entity,
      account: p.account,
      transfer,
      webhook: webhook.id,
      counterparty: p.counterparty,
      intent: intent.id,
      card: card.id,
      entity2: p2.entity,
      transfers2,
    });

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
    expect(headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
    });
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
    const stored = await page.evaluate(() => ({
      session: Object.keys(sessionStorage),
      local: localStorage.length,
      cookie: document.cookie,
    }));
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
    const books = (await t.http.get('/ledger').set(bearer(KEYS.sandbox)).expect(200)).body.data.currencies.find(
      (c: { currency: string }) => c.currency === 'USD',
    );
    const amount = (minor: number) => `${(minor / 100).toLocaleString('en', { minimumFractionDigits: 2 })} USD`;
    expect(books.debits_posted).toBe(books.credits_posted);
    expect(usd.split('\t')).toEqual([
      'USD',
      amount(books.debits_posted),
      amount(books.credits_posted),
      '0.00 USD',
      '0.00 USD',
      'balanced',
    ]);
    const accounts = await page.locator('#ledger-accounts tbody tr').allInnerTexts();
    expect(accounts.some((row) => row.startsWith('fees:USD'))).toBe(true);
    expect(accounts.some((row) => row.startsWith('clearing:bank-transfer:USD') && row.includes('500.00 USD'))).toBe(
      true,
    );
  });

  it("shows a transfer's timeline", async () => {
    await page.goto(`${base}/dashboard#/accounts/${world.account}`);
    await page.click(`#statement a[href="#/entities/${world.entity}/transfers/${world.transfer}"]`);
    await page.waitForSelector('#timeline');
    expect(
      await page.locator('#timeline > li').evaluateAll((items) => items.map((li) => (li as InPage).dataset.type)),
    ).toEqual(['TransferCreated', 'TransferProcessing', 'TransferSucceeded']);
    expect(await text('#timeline')).toContain('status successful');
    expect(await text('h1')).toMatch(/^Transfer payout-0042\s+successful$/);
  });

  it('opens a failed webhook delivery and reads the receiver’s answer', async () => {
    await page.click(`a[href="#/entities/${world.entity}"]`);
    await page.waitForSelector('#deliveries table');
    expect(await page.locator('#webhooks tbody tr').innerText()).toMatch(/\/fail\s+active\s+\d+\s+0\s+\d+\s+500/);
    await page.selectOption('#delivery-status', 'failed');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('#deliveries tbody tr')].every((r) => r.textContent!.includes('failed')),
    );
    await page
      .locator('#deliveries tbody tr', { hasText: 'outflows.completed' })
      .first()
      .locator('.open-delivery')
      .click();
    await page.waitForSelector('#delivery-detail .delivery');
    expect(await text('#delivery-detail .response-status')).toBe('Status 500');
    expect(await text('#delivery-detail .response-body')).toMatch(/^answer \d+ from \/fail$/);
    expect(JSON.parse(await text('#delivery-detail .request-body'))).toMatchObject({
      event: 'outflows.completed',
      data: { id: world.transfer, status: 'successful' },
    });
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
    const resent = (await logsOf(t, world.entity, { event: 'outflows.completed' })).filter(
      (l) => l.event_id === last.event_id,
    );
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
    const number = (
      await t.http
        .get(
          `/card-details/${(await t.http.get(`/cards?entity_id=${world.entity}`).set(bearer(KEYS.sandbox))).body.data.cards[0].id}`,
        )
        .set(bearer(KEYS.sandbox))
    ).body.data.number as string;
    expect(await page.content()).not.toContain(number);
  });

  /** Opens a route (or does what opens one) and waits until the page drawn after it is there: the previous page's content is marked first. */
  const settled = async (action: () => Promise<unknown>) => {
    await page.evaluate(() => document.querySelector('#view > *')?.setAttribute('data-stale', ''));
    await action();
    await page.waitForSelector('#view > :not([data-stale]):not(.loading)');
  };
  const open = (route: string) =>
    settled(async () => {
      const url = `${base}/dashboard#/${route}`;
      // The same hash again is no navigation: the page is loaded anew.
      if (page.url() === url) await page.reload();
      else await page.goto(url);
    });
  const api = async (p: string, query: Record<string, string | number> = {}) =>
    (await t.http.get(p).query(query).set(bearer(KEYS.sandbox)).expect(200)).body;
  const counterpartyName = async (id: string) => {
    const c = await api(`/counterparties/${id}`);
    return (c.nickname || `${c.profile.first_name} ${c.profile.last_name}`) as string;
  };
  /** Set by a test that narrows the page: the tests after it run at 1280 px again, whether it passed or not. */
  let afterWide: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await afterWide?.();
    afterWide = null;
  });
  const hrefIds = (selector: string) =>
    page.locator(selector).evaluateAll((links) =>
      links.map(
        (a) =>
          String((a as InPage).getAttribute('href'))
            .split('/')
            .pop() ?? '',
      ),
    );

  it("lists the organization's transfers newest first across entities, by entity and status, a page at a time, recipients by name", async () => {
    const listed = async (entity: string) =>
      (await api('/transfers', { entity_id: entity, limit: 100 })).data as { id: string; created: number }[];
    const created = new Map(
      [...(await listed(world.entity)), ...(await listed(world.entity2))].map((x) => [x.id, x.created]),
    );
    expect(created.size).toBe(31);
    await open('transfers');
    const ids = () => hrefIds('#transfers tbody tr td:first-child a');
    // The first page is the 25 newest of both entities, newest first.
    const first = await ids();
    const times = first.map((id) => created.get(id)!);
    expect(first).toHaveLength(25);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const rest = [...created].filter(([id]) => !first.includes(id));
    expect(rest.every(([, at]) => at <= times[24])).toBe(true);
    await page.click('#transfers .more');
    await page.waitForFunction((n) => document.querySelectorAll('#transfers tbody tr').length === n, created.size);
    expect((await ids()).sort()).toEqual([...created.keys()].sort());
    expect(await page.locator('#transfers .more').isHidden()).toBe(true);
    const payout = await page.locator('#transfers tbody tr', { hasText: 'payout-0042' }).innerText();
    expect(payout).toContain(await counterpartyName(world.counterparty));
    expect(payout).toMatch(/500\.00 USD\s+successful\s+Invoice 42/);
    expect(await text('#transfers')).not.toContain('cpt_');
    await settled(() => page.selectOption('#filter-entity_id', world.entity));
    expect(await ids()).toEqual([world.transfer]);
    await open('transfers?status=successful');
    expect(await ids()).toEqual([world.transfer]);
    await open('transfers?status=failed');
    const failed = await ids();
    expect(failed).toHaveLength(25);
    for (const id of failed) expect(world.transfers2).toContain(id);
  });

  it("lists the organization's webhooks and their delivery attempts, by outcome", async () => {
    await open('webhooks');
    const hooks = await page.locator('#org-webhooks tbody tr').allInnerTexts();
    expect(hooks).toHaveLength(1);
    expect(hooks[0]).toMatch(/\/fail\s+.+\s+active/);
    expect(await page.locator(`#org-webhooks a[href="#/entities/${world.entity}"]`).count()).toBe(1);
    await settled(() => page.selectOption('#filter-status', 'failed'));
    const attempts = await page.locator('#org-deliveries tbody tr').allInnerTexts();
    expect(attempts.length).toBeGreaterThan(0);
    for (const row of attempts) expect(row).toMatch(/\sfailed\s+500\s/);
    await open('webhooks?state=inactive');
    expect(await text('#org-webhooks')).toBe('No webhooks.');
  });

  it("shows the statement's description and recipient, not the transfer's id", async () => {
    await open(`accounts/${world.account}`);
    const debit = await page.locator('#statement tbody tr', { hasText: /debit\s*501\.25/ }).innerText();
    expect(debit).toMatch(/debit\s+501\.25 USD\s+—\s+Invoice 42\s/);
    expect(debit).toContain(await counterpartyName(world.counterparty));
    expect(await text('#statement')).not.toContain(world.transfer);
  });

  it('shows counterparties by name and API keys without their secrets', async () => {
    await open('counterparties');
    expect(await page.locator('#counterparties tbody tr').count()).toBe(2);
    const name = await counterpartyName(world.counterparty);
    expect(await page.locator(`#counterparties a[href="#/counterparties/${world.counterparty}"]`).innerText()).toBe(
      name,
    );
    await settled(() => page.click(`#counterparties a[href="#/counterparties/${world.counterparty}"]`));
    expect(await text('h1')).toMatch(new RegExp(`^${name}\\s+active$`));
    expect(await page.locator('#payment-details tbody tr').count()).toBe(1);
    await open('api-keys');
    const me = await api('/api-keys/current');
    expect(await page.locator('#api-keys tbody tr', { hasText: me.id }).innerText()).toContain(`…${me.last4}`);
    expect(await page.content()).not.toContain(KEYS.sandbox);
  });

  it('opens any id from the search box', async () => {
    const created = (await api('/events', { resource_id: world.transfer, limit: 1 })).data[0] as {
      id: string;
      type: string;
    };
    // An event's page finds it through its proof: wait until a checkpoint holds it.
    await eventually(
      () => t.http.get(`/events/${created.id}/proof`).set(bearer(KEYS.sandbox)),
      (res) => res.status === 200,
    );
    const cases: [string, string][] = [
      [world.entity, `entities/${world.entity}`],
      [world.account, `accounts/${world.account}`],
      [world.transfer, `entities/${world.entity}/transfers/${world.transfer}`],
      [world.counterparty, `counterparties/${world.counterparty}`],
      [world.webhook, `entities/${world.entity}`],
      [world.intent, `payment-intents/${world.intent}`],
      [world.card, `cards/${world.card}`],
      [created.id, `events/${created.id}`],
    ];
    for (const [id, route] of cases) {
      await settled(async () => {
        await page.fill('#search', id);
        await page.press('#search', 'Enter');
      });
      expect([id, new URL(page.url()).hash]).toEqual([id, `#/${route}`]);
    }
    expect(await text('h1')).toBe(`${created.type} ${created.id}`);
    expect(await text('#view .facts')).toContain(world.transfer);
    await settled(async () => {
      await page.fill('#search', 'trf_01ARZ3NDEKTSV4RRFFQ69G5FAV');
      await page.press('#search', 'Enter');
    });
    expect(await text('#search-result')).toBe(
      'Nothing of this organization has the id trf_01ARZ3NDEKTSV4RRFFQ69G5FAV.',
    );
  });

  it('shows events newest first, a page at a time, each time on one line', async () => {
    const newest = async () => {
      const positions: number[] = [];
      for (let after = 0; ;) {
        const page = await api('/events', { after_position: after, limit: 100 });
        positions.push(...page.data.map((e: { position: number }) => e.position));
        if (!page.meta.pagination.has_more) return positions.reverse();
        after = positions[positions.length - 1];
      }
    };
    const before = (await newest())[0];
    await open('events');
    const positions = async () => (await page.locator('#events tbody tr td:first-child').allInnerTexts()).map(Number);
    const first = await positions();
    expect(first[0]).toBeGreaterThanOrEqual(before);
    // Events written since the page was drawn (the webhook worker's) are not on it.
    const log = (await newest()).filter((p) => p <= first[0]);
    expect(log.length).toBeGreaterThan(50);
    expect(first).toEqual(log.slice(0, 50));
    await settled(() => page.click('#events-older'));
    expect(await positions()).toEqual(log.slice(50, 100));
    expect(await page.locator('#events-newest').count()).toBe(1);
    // Each time cell is one line of text: its text is less than two lines high.
    const lines = await page.locator('#events tbody tr td:nth-child(2)').evaluateAll((cells) =>
      cells.map((td) => {
        const range = document.createRange();
        range.selectNodeContents(td);
        return Math.round(range.getBoundingClientRect().height / parseFloat(getComputedStyle(td).fontSize));
      }),
    );
    expect(new Set(lines)).toEqual(new Set([1]));
  });

  it('draws every page at 1280 and 390 px wide: at 390 nothing overflows the page, and the navigation folds behind a menu', async () => {
    const routes: [string, string][] = [
      ['overview', ''],
      ['entities', 'entities'],
      ['entity', `entities/${world.entity}`],
      ['accounts', 'accounts'],
      ['account', `accounts/${world.account}`],
      ['transfers', 'transfers'],
      ['transfer', `entities/${world.entity}/transfers/${world.transfer}`],
      ['counterparties', 'counterparties'],
      ['counterparty', `counterparties/${world.counterparty}`],
      ['webhooks', 'webhooks'],
      ['ledger', 'ledger'],
      ['payment-intents', 'payment-intents'],
      ['payment-intent', `payment-intents/${world.intent}`],
      ['card', `cards/${world.card}`],
      ['events', 'events'],
      ['history', `history/${world.account}`],
      ['api-keys', 'api-keys'],
    ];
    const overflow = () =>
      page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: (globalThis as InPage).innerWidth,
      }));
    const overflowing: string[] = [];
    afterWide = () => page.setViewportSize({ width: 1280, height: 900 });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [name, route] of routes) {
        await open(route);
        // The balance chart takes its width once on the page: wait for it to fit (a generous bound), then look.
        if (name === 'account')
          await page
            .waitForFunction(() => document.documentElement.scrollWidth <= (globalThis as InPage).innerWidth, null, {
              timeout: 10_000,
            })
            .catch(() => undefined);
        await page.screenshot({ path: join(OUTPUT, `dashboard-${name}-${width}.png`), fullPage: true });
        const seen = await overflow();
        if (width === 390 && seen.scrollWidth > seen.innerWidth) overflowing.push(`${name}: ${seen.scrollWidth} px`);
      }
    }
    expect(overflowing).toEqual([]);
    // At 390 px the links are behind the menu button; a chosen link folds them again.
    expect(await page.locator('nav a[data-nav=transfers]').isVisible()).toBe(false);
    await page.click('#menu');
    expect(await page.locator('nav a[data-nav=transfers]').isVisible()).toBe(true);
    await settled(() => page.click('nav a[data-nav=transfers]'));
    expect(await page.locator('nav a[data-nav=transfers]').isVisible()).toBe(false);
  });

  it('shows who decided each card transaction: the endpoint’s partial approval and its reason, the platform’s own (decisions §16)', async () => {
    const endpoint = await AuthorizationEndpoint.start();
    try {
      // An entity of its own (the world's balances and lists stay as the tests above read them), its endpoint approving in part.
      const h = await holder(t, 'USD', 10_000);
      expect((await endpoint.subscribe(t, h.entity, '/decide')).status).toBe(201);
      endpoint.answer('/decide', { status: 200, body: { approved: true, amount: 600, reason: 'team budget left' } });
      const card = (await virtualCard(t, h.account)).id;
      await authorize(t, card, { amount: 1_000 }).expect(201);
      await settled(() => page.goto(`${base}/dashboard#/cards/${card}`));
      const decided = await text('#card-transactions tbody tr');
      expect(decided).toMatch(/endpoint: approved 6\.00 USD \(HTTP 200, \d+ ms\)/);
      expect(decided).toContain('team budget left');
      await settled(() => page.goto(`${base}/dashboard#/cards/${world.card}`));
      expect(await text('#card-transactions tbody tr')).toContain('platform: approved 12.50 USD');
    } finally {
      await endpoint.close();
    }
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
