import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';

const OPERATOR = 'operator-token-health-details-0123456789abcdef';

/**
 * Issue 32 item 10: GET /health without the operator token says only whether the service is up;
 * the details (the log's positions, the write load, under npm start the worker's pid and memory)
 * are for the operator token.
 */
describe('GET /health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PAYMENTS_ADMIN_TOKEN: OPERATOR });
  });
  afterAll(() => t.close());

  it('without a credential, or with an API key or another token, is only whether the service is up', async () => {
    for (const auth of [{}, bearer(KEYS.sandbox), bearer('not-the-operator-token')]) {
      const res = await t.http.get('/health').set(auth).expect(200);
      expect(res.body).toEqual({ status: 'ok' });
    }
  });

  it('with the operator token, has the details', async () => {
    const res = await t.http.get('/health').set(bearer(OPERATOR)).expect(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      adapters: expect.any(Object),
      log: { head: expect.any(Number) },
      writes: expect.any(Object),
    });
  });
});
