import { captureLogLines } from '@app/platform/logging/logger';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';

type Line = Record<string, any>;

/** Issue 32 item 7: a refused request's completion line carries its error code; a shutdown is announced with its signal. */
describe('log lines an operator can use', () => {
  let t: TestApp;
  const raw: string[] = [];
  let capture: { stop(): void };
  const lines = (): Line[] => raw.map((l) => JSON.parse(l) as Line);
  beforeAll(async () => {
    capture = captureLogLines((line) => raw.push(line), 'debug');
    t = await startTestApp();
  });
  afterAll(() => capture.stop());

  it('a 4xx completion line names the error code', async () => {
    await t.http.get('/accounts/acc_nope').set(bearer(KEYS.sandbox)).set('x-request-id', 'code-404').expect(404);
    await t.http.get('/accounts').set('x-request-id', 'code-401').expect(401);
    await t.http
      .get('/accounts')
      .set(bearer(KEYS.sandbox))
      .set('Payments-Version', 'nope')
      .set('x-request-id', 'code-400')
      .expect(400);
    const done = (id: string) => lines().find((l) => l.request_id === id && l.msg === 'request');
    expect(done('code-404')).toMatchObject({ res: { status: 404 }, code: expect.stringMatching(/not_found/) });
    expect(done('code-401')).toMatchObject({ res: { status: 401 }, code: 'unauthorized' });
    expect(done('code-400')).toMatchObject({ res: { status: 400 }, code: 'invalid_api_version' });
  });

  it('announces a shutdown, with the signal that asked for it, and its end', async () => {
    raw.length = 0;
    // What Nest's SIGTERM hook calls (enableShutdownHooks), without signalling the test's own process.
    const app = t.app as unknown as { callBeforeShutdownHook(signal?: string): Promise<void> };
    await app.callBeforeShutdownHook('SIGTERM');
    await t.close();
    const said = lines().filter((l) => l.msg === 'shutting down' || l.msg === 'shut down');
    expect(said.map((l) => [l.msg, l.signal])).toEqual([
      ['shutting down', 'SIGTERM'],
      ['shutting down', null],
      ['shut down', null],
    ]);
  });
});
