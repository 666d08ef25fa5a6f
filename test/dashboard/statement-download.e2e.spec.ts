import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from '../support/browser';
import { builtDashboard } from '../support/dashboard-build';
import { KEYS, startTestApp, type TestApp } from '../support/test-app';
import { payer } from '../transfers/helpers';

jest.setTimeout(180_000);

/**
 * The account page offers the month's statement (decisions §17, issue 31): in Chromium, signed in
 * with an API key, the PDF and CSV buttons download the files the API answers for that month.
 */
describe('dashboard: a monthly statement downloaded from the account page', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let page: Page;
  let account: string;
  const problems: string[] = [];

  beforeAll(async () => {
    const [dir, chromium] = await Promise.all([builtDashboard(), launchChromium()]);
    browser = chromium;
    t = await startTestApp({ DASHBOARD_DIR: dir });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    account = (await payer(t, 'USD', 123_456)).account;
    await t.settle();
    page = await browser.context.newPage();
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${base}/dashboard`);
    await page.fill('#api-key', KEYS.sandbox);
    await page.click('#sign-in button[type=submit]');
    await page.waitForSelector('#mode-banner.banner-sandbox');
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const downloaded = async (button: string) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
    return { name: download.suggestedFilename(), body: readFileSync((await download.path())!) };
  };

  it('downloads the month as PDF and as CSV', async () => {
    const month = new Date().toISOString().slice(0, 7);
    await page.goto(`${base}/dashboard#/accounts/${account}`);
    await page.waitForSelector('#statement-pdf');
    expect(await page.inputValue('#statement-month')).toBe(month);

    const pdf = await downloaded('#statement-pdf');
    expect(pdf.name).toBe(`statement-${account}-${month}.pdf`);
    expect(pdf.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const csv = await downloaded('#statement-csv');
    expect(csv.name).toBe(`statement-${account}-${month}.csv`);
    const rows = csv.body.toString('utf8').trimEnd().split('\r\n');
    expect(rows[0]).toMatch(/^id,created,type,amount,/);
    expect(rows[1]).toMatch(new RegExp(`^ste_[0-9A-Z]+,\\d+,credit,123456,`));
    expect(rows[rows.length - 1]).toBe('closing_balance,,,123456,,,,,,,');
    expect(await page.innerText('#statement-status')).toContain(`Downloaded the ${month} statement (CSV)`);
    expect(problems).toEqual([]);
  });
});
