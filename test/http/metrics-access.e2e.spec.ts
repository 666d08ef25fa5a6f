import { networkInterfaces } from 'node:os';
import type { AddressInfo } from 'node:net';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';

const OPERATOR = 'operator-token-metrics-access-0123456789abcdef';

/**
 * Issue 32 item 10: /metrics (the ledger's totals among them) on the API's public port is for the
 * operator: with PAYMENTS_ADMIN_TOKEN set, its token only; without, this machine only (npm start);
 * METRICS_PORT moves it to a port of its own (unchanged).
 */
describe('GET /metrics on the API port', () => {
  describe('with PAYMENTS_ADMIN_TOKEN', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ PAYMENTS_ADMIN_TOKEN: OPERATOR });
    });
    afterAll(() => t.close());

    it('answers the operator token only: 401 without it, or with an API key', async () => {
      expect((await t.http.get('/metrics').expect(401)).body).toMatchObject({ code: 'unauthorized' });
      await t.http.get('/metrics').set(bearer(KEYS.sandbox)).expect(401);
      expect((await t.http.get('/metrics').set(bearer(OPERATOR)).expect(200)).text).toMatch(/^http_requests_total/m);
    });
  });

  // A caller that is not this machine: the app listening on every interface, asked on a non-loopback address of it.
  const external = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  if (!external)
    console.warn('/metrics from another machine skipped: this machine has no non-loopback IPv4 address to ask on');
  (external ? describe : describe.skip)('without PAYMENTS_ADMIN_TOKEN', () => {
    let t: TestApp;
    let port: number;
    beforeAll(async () => {
      t = await startTestApp();
      await t.app.listen(0, '0.0.0.0');
      port = (t.app.getHttpServer().address() as AddressInfo).port;
    });
    afterAll(() => t.close());

    it('answers this machine, and is an unknown route to any other', async () => {
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
      const other = await fetch(`http://${external}:${port}/metrics`);
      expect(other.status).toBe(404);
      expect(await other.json()).toMatchObject({ code: 'not_found' });
    });
  });
});
