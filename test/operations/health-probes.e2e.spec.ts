import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { loadConfig } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { captureLogLines } from '@app/platform/logging/logger';
import { createApi } from '../../apps/api/src/app.factory';
import { bearer, startTestApp, type TestApp } from '../support/test-app';

/** /health's details are behind the operator token (issue 32 item 10). */
const OPERATOR = 'operator-token-health-probes-0123456789abcdef';

/** A port nothing listens on: taken from the OS, then released. */
const closedPort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/**
 * Issue 22: liveness never reads a store, so an event store outage makes the API unready (out of
 * the Service) rather than restarted; readiness checks each store with a bound and says which.
 */
describe('health probes: /health/live and /health/ready', () => {
  describe('with EventStoreDB unreachable (a closed port)', () => {
    let app: INestApplication;
    let dir: string;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'payments-probes-'));
      const port = await closedPort();
      app = await createApi(
        loadConfig({
          ...process.env,
          DATA_DIR: dir,
          EVENTSTORE_URL: `esdb://127.0.0.1:${port}?tls=false`,
          MONGO_URL: '',
          KAFKA_BROKERS: '',
        }),
      );
    });
    afterAll(async () => {
      await app?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('/health/live answers 200 at once, reading nothing', async () => {
      // What it reads, counted (not timed: issue 32): the event store it would otherwise wait on.
      const head = jest.spyOn(app.get<EventStore>(EVENT_STORE), 'headPosition');
      const res = await request(app.getHttpServer()).get('/health/live').expect(200);
      expect(res.body).toEqual({ status: 'ok', info: {}, error: {}, details: {} });
      expect(head).not.toHaveBeenCalled();
      head.mockRestore();
    });

    it('/health/ready answers 503 naming the event store, the other stores up, within its bound', async () => {
      // Answering at all, with the event store unreachable, is the bound (READINESS_CHECK_TIMEOUT_MS); its length is not timed here.
      const res = await request(app.getHttpServer()).get('/health/ready').expect(503);
      expect(res.body.status).toBe('error');
      expect(res.body.error).toEqual({
        event_store: expect.objectContaining({ status: 'down', adapter: 'eventstoredb' }),
      });
      expect(res.body.info).toMatchObject({
        read_store: { status: 'up' },
        coordination_store: { status: 'up' },
        idempotency_store: { status: 'up' },
        rate_limit_store: { status: 'up' },
        delivery_store: { status: 'up' },
      });
      // The driver's message (hosts, ports) goes to the log, not to the public probe.
      expect(JSON.stringify(res.body)).not.toContain('127.0.0.1');
    });
  });

  describe('with the embedded log failing', () => {
    let t: TestApp;
    const lines: string[] = [];
    let capture: { stop(): void };
    beforeAll(async () => {
      // Before the app: its request logger takes the level it has when it is built.
      capture = captureLogLines((line) => lines.push(line), 'warn');
      t = await startTestApp({ PAYMENTS_ADMIN_TOKEN: OPERATOR });
    });
    afterAll(async () => {
      await t.close();
      capture.stop();
    });

    it('both answer 200 while every store answers, each check with its adapter', async () => {
      await t.http.get('/health/live').expect(200);
      const res = await t.http.get('/health/ready').expect(200);
      expect(Object.keys(res.body.details).sort()).toEqual([
        'coordination_store',
        'delivery_store',
        'event_store',
        'idempotency_store',
        'rate_limit_store',
        'read_store',
        'snapshot_store',
      ]);
      expect(
        Object.values(res.body.details).every(
          (d) =>
            (d as { status: string; adapter: string }).status === 'up' &&
            (d as { adapter: string }).adapter === 'sqlite',
        ),
      ).toBe(true);
      // /health is unchanged (compat): status, adapters, the log's positions.
      expect((await t.http.get('/health').set(bearer(OPERATOR)).expect(200)).body).toMatchObject({
        status: 'ok',
        log: { head: expect.any(Number) },
      });
    });

    it('a log that fails: live 200, ready 503, and the failure logged with the request id', async () => {
      const store = t.app.get<EventStore>(EVENT_STORE);
      const spy = jest.spyOn(store, 'headPosition').mockRejectedValue(new Error('disk I/O error'));
      try {
        await t.http.get('/health/live').expect(200);
        const res = await t.http.get('/health/ready').set('x-request-id', 'probe-1').expect(503);
        expect(res.body.error).toEqual({
          event_store: { status: 'down', adapter: 'sqlite', ms: expect.any(Number), message: 'unavailable' },
        });
        // /health reads the log too: a store failing with an I/O error is an outage (503 in the envelope), unlike /health/live.
        expect((await t.http.get('/health').set(bearer(OPERATOR)).expect(503)).body).toMatchObject({
          status: 'error',
          code: 'service_unavailable',
        });
      } finally {
        spy.mockRestore();
      }
      const failure = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'readiness check failed');
      expect(failure).toMatchObject({
        request_id: 'probe-1',
        check: 'event_store',
        err: { message: 'disk I/O error' },
      });
      await t.http.get('/health/ready').expect(200);
    });
  });
});
