import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { launchChromium, type Browser } from '../support/browser';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The docs page at /docs in a real browser (the Chromium `npm ci` installs): Swagger UI renders
 * the API's own document, and every request the page makes goes to the API itself (no CDN), under
 * a Content-Security-Policy that would refuse anything else.
 */
describe('the docs page (/docs) in a browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium({ javaScriptEnabled: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders the API reference from /openapi.json, loading only the API’s own assets', async () => {
    const requested: string[] = [];
    const refused: string[] = [];
    const page = await browser.context.newPage();
    page.on('request', (request) => requested.push(request.url()));
    page.on(
      'console',
      (message) => /Refused to|Content Security Policy/i.test(message.text()) && refused.push(message.text()),
    );
    await page.goto(`${base}/docs`, { waitUntil: 'networkidle' });
    await page.waitForSelector('.swagger-ui .info .title', { timeout: 30_000 });
    expect(await page.textContent('.swagger-ui .info .title')).toContain('Payments platform API');
    await page.waitForSelector('#operations-Transfers-createTransfer', { timeout: 30_000 });

    expect(requested.filter((url) => !url.startsWith(`${base}/`) && !url.startsWith('data:'))).toEqual([]);
    for (const asset of [
      '/docs/swagger-ui-bundle.js',
      '/docs/swagger-ui.css',
      '/docs/swagger-initializer.js',
      '/openapi.json',
    ])
      expect(requested).toContain(`${base}${asset}`);
    expect(refused).toEqual([]);

    const out = join(__dirname, '..', '..', 'test-output');
    mkdirSync(out, { recursive: true });
    await page.screenshot({ path: join(out, 'docs-page.png'), fullPage: false });
    await page.close();
  }, 90_000);
});
