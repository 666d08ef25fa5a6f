import { QueryBus } from '@nestjs/cqrs';
import { captureLogLines, logger } from '@app/platform/logging/logger';
import { traceIdOf } from '@app/platform/logging/trace-context';
import { approvedEntity } from '../support/fixtures';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';

type Line = Record<string, any>;

/**
 * Issue 22: request logs (apps/api/src/http/logging.ts), with the request id, the actor, the organization and
 * the trace on every line of a request, handler lines included (AsyncLocalStorage); nothing secret.
 */
describe('request logs', () => {
  let t: TestApp;
  const raw: string[] = [];
  let capture: { stop(): void };
  const lines = (): Line[] => raw.map((l) => JSON.parse(l) as Line);
  beforeAll(async () => {
    // Before the app: its request logger takes the level it has when it is built.
    capture = captureLogLines((line) => raw.push(line), 'debug');
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
    capture.stop();
  });
  beforeEach(() => void (raw.length = 0));

  it('one completion line per request: request id, method, path, status, time, actor, organization, mode, trace; no headers', async () => {
    await t.http.get('/accounts').set(bearer(KEYS.sandbox)).set('x-request-id', 'log-test-1').expect(200);
    const done = lines().filter((l) => l.request_id === 'log-test-1' && l.msg === 'request');
    expect(done).toEqual([
      expect.objectContaining({
        level: 30,
        req: { method: 'GET', path: '/accounts' },
        res: { status: 200 },
        ms: expect.any(Number),
        actor: expect.stringMatching(/^api_key:key_/),
        organization_id: expect.stringMatching(/^org_/),
        mode: 'sandbox',
        trace_id: traceIdOf('log-test-1'),
      }),
    ]);
    expect(JSON.stringify(done)).not.toContain('headers');
  });

  it("a handler's own lines carry the request's fields too", async () => {
    const bus = t.app.get(QueryBus);
    const execute = bus.execute.bind(bus);
    const spy = jest.spyOn(bus, 'execute').mockImplementationOnce(async (query) => {
      await new Promise((r) => setTimeout(r, 5));
      logger.info({ step: 'inside' }, 'handler line');
      return execute(query);
    });
    try {
      await t.http.get('/accounts').set(bearer(KEYS.sandbox)).set('x-request-id', 'log-test-2').expect(200);
    } finally {
      spy.mockRestore();
    }
    const inside = lines().find((l) => l.msg === 'handler line');
    expect(inside).toMatchObject({
      step: 'inside',
      request_id: 'log-test-2',
      actor: expect.stringMatching(/^api_key:/),
      organization_id: expect.stringMatching(/^org_/),
      trace_id: traceIdOf('log-test-2'),
    });
    // Outside a request, the root logger: no request fields.
    logger.info('outside');
    expect(lines().find((l) => l.msg === 'outside')).not.toHaveProperty('request_id');
  });

  it("takes the caller's W3C traceparent for the request, and names the trace its asynchronous work continues under", async () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    await t.http
      .get('/accounts')
      .set(bearer(KEYS.sandbox))
      .set('x-request-id', 'log-test-3')
      .set('traceparent', traceparent)
      .expect(200);
    expect(lines().find((l) => l.request_id === 'log-test-3')).toMatchObject({
      trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
      async_trace_id: traceIdOf('log-test-3'),
    });
    // An invalid one (all-zero trace id) is ignored: the derived trace.
    await t.http
      .get('/accounts')
      .set(bearer(KEYS.sandbox))
      .set('x-request-id', 'log-test-4')
      .set('traceparent', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`)
      .expect(200);
    expect(lines().find((l) => l.request_id === 'log-test-4')).toMatchObject({ trace_id: traceIdOf('log-test-4') });
  });

  it('never writes an Authorization value, a card number or a CVV', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox, 'Logs');
    await t.http
      .post('/accounts')
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: entity, type: 'checking', currency: 'USD', card_number: '4242424242424242', cvv: '123' });
    await t.http.get('/accounts').set('Authorization', 'Bearer sk_test_notarealkeynotarealkey0000').expect(401);
    // Objects handed to the logger by code are redacted by path, as a second guard.
    await t.http.get('/health').set('x-request-id', 'log-test-5');
    logger.warn(
      {
        headers: { authorization: `Bearer ${KEYS.sandbox}` },
        card: { card_number: '4242424242424242', cvv: '123' },
        secret: 's3cr3t',
      },
      'careless line',
    );
    const all = raw.join('');
    for (const secret of [KEYS.sandbox, 'sk_test_notarealkeynotarealkey0000', '4242424242424242', '"123"', 's3cr3t'])
      expect(all).not.toContain(secret);
    expect(lines().find((l) => l.msg === 'careless line')).toMatchObject({
      headers: { authorization: '***' },
      card: { card_number: '***', cvv: '***' },
      secret: '***',
    });
    // The 401 line has no actor: none was resolved.
    expect(lines().find((l) => l.msg === 'request' && l.res?.status === 401)).not.toHaveProperty('actor');
  });

  it('logs probes and scrapes at debug, other requests at info', async () => {
    await t.http.get('/health/live').set('x-request-id', 'log-test-6').expect(200);
    await t.http.get('/metrics').set('x-request-id', 'log-test-7').expect(200);
    expect(
      lines()
        .filter((l) => ['log-test-6', 'log-test-7'].includes(l.request_id))
        .map((l) => l.level),
    ).toEqual([20, 20]);
  });
});
