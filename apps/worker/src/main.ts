import 'reflect-metadata';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';
import { describeAdapters } from '@app/platform/adapters';
import { loadConfig, type PlatformConfig } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { processSignals } from '@app/platform/log-reader/process-signals';
import type { FromWorker, ToWorker } from '@app/platform/log-reader/worker-protocol';
import { logger } from '@app/platform/logging/logger';
import { APP_METRICS, METRICS_CONTENT_TYPE, defineLogGauges, withTimeout, type AppMetrics } from '@app/platform/metrics/metrics';
import { PlatformLifecycle } from '@app/platform/platform.module';
import { createWorker } from './worker.factory';
import { WorkerStatus } from './worker.module';

/**
 * `npm run start:worker`: the log's readers, by role (`WORKER_ROLES`, default all): projector,
 * publisher, webhooks, process managers. Two ways to run it:
 *
 * - **Supervised** (forked by `npm start`'s API, with an IPC channel): it answers the API's
 *   heartbeat from the first line, commits its appends on the embedded log through the API's
 *   writer (one writer per log file), relays wake-ups both ways, and exits when the API goes.
 * - **Standalone** (a deployment of deploy/): it answers on PORT, for probes and scrapes,
 *   `GET /health/live` (the event loop answers), `GET /health/ready` (its readers run and the log
 *   answers), `GET /health` (its report) and `GET /metrics` (Prometheus).
 *
 * Either way it exits 1 when a reader stops on an error, so that its supervisor (npm start, or
 * the orchestrator) starts it again from the checkpoints.
 */
async function main(): Promise<void> {
  const supervised = typeof process.send === 'function';
  const send = (message: FromWorker) => void (process.connected && process.send?.(message));
  let app: INestApplicationContext | null = null;
  let status: WorkerStatus | null = null;
  let metrics: AppMetrics | null = null;
  if (supervised) {
    // First, before the modules boot: a worker that stops answering is killed and restarted.
    process.on('message', (message: ToWorker) => {
      if (message.type === 'ping') send({ type: 'pong', id: message.id });
      else if (message.type === 'appended') processSignals.siblingAppended.notify();
      else if (message.type === 'status' && status) send({ type: 'status', id: message.id, report: status.report() });
      // The API's /metrics includes this worker's series (metrics.ts, AppMetrics.text).
      else if (message.type === 'metrics' && metrics) void metrics.json().then((m) => send({ type: 'metrics', id: message.id, metrics: m }));
    });
  }
  const loaded = loadConfig();
  // One writer per log file: on the embedded log, npm start's API commits for its worker.
  const config: PlatformConfig = supervised && !loaded.eventStoreUrl ? { ...loaded, appendThroughParent: true } : loaded;

  let closing = false;
  let health: Server | null = null;
  const exit = (code: number) => {
    if (closing) return;
    closing = true;
    health?.close();
    void (app?.close() ?? Promise.resolve()).finally(() => process.exit(code));
  };
  process.on('SIGTERM', () => exit(0));
  process.on('SIGINT', () => exit(0));
  // npm start's API died (even by SIGKILL): no one commits for us or restarts us, so stop.
  if (supervised) process.on('disconnect', () => exit(0));

  app = await createWorker(config);
  const worker = app.get(WorkerStatus);
  status = worker;
  metrics = app.get<AppMetrics>(APP_METRICS);
  const lifecycle = app.get(PlatformLifecycle);
  let failed: string | null = null;
  lifecycle.onFailure((component) => {
    failed = component;
    exit(1);
  });
  if (supervised) {
    // After each projector batch, so the API's read-your-writes waiters look at once.
    lifecycle.projector.onBatch(() => send({ type: 'projected' }));
    send({ type: 'ready' });
  } else {
    const store = app.get<EventStore>(EVENT_STORE);
    const scraped = metrics;
    // Under npm start the API reports the positions; standalone, this worker does.
    defineLogGauges(scraped, async () => {
      const { projected, published } = worker.report();
      return { head: await store.headPosition(), projected, published };
    });
    const json = (res: ServerResponse, code: number, body: unknown) => res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    health = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'GET') return void res.writeHead(404).end();
      // Liveness: the event loop answers (a hung worker is restarted); nothing is read.
      if (path === '/health/live') return json(res, failed ? 503 : 200, { status: failed ? 'error' : 'ok', info: {}, error: {}, details: {} });
      // Readiness: its readers run and the log answers, in @nestjs/terminus's shape as the API's.
      if (path === '/health/ready') {
        return void withTimeout(store.headPosition(), 2_000).then(
          (head) => {
            const details = { readers: { status: failed ? 'down' : 'up', roles: worker.roles, ...(failed ? { failed } : {}) }, event_store: { status: 'up', head } };
            json(res, failed ? 503 : 200, {
              status: failed ? 'error' : 'ok',
              info: failed ? { event_store: details.event_store } : details,
              error: failed ? { readers: details.readers } : {},
              details,
            });
          },
          (err: unknown) => {
            logger.warn({ err, check: 'event_store' }, 'readiness check failed');
            const details = { readers: { status: failed ? 'down' : 'up', roles: worker.roles }, event_store: { status: 'down', message: 'unavailable' } };
            json(res, 503, { status: 'error', info: {}, error: details, details });
          },
        );
      }
      if (path === '/metrics') {
        return void scraped.text().then(
          (body) => res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE }).end(body),
          () => res.writeHead(500).end(),
        );
      }
      if (path !== '/health') return void res.writeHead(404).end();
      void store.headPosition().then(
        (head) => {
          const { projected, published, ...report } = worker.report();
          const body = { status: failed ? 'failed' : 'ok', process: 'worker', adapters: describeAdapters(config), log: { head, projected, published }, ...report };
          json(res, failed ? 503 : 200, body);
        },
        () => res.writeHead(503).end(),
      );
    });
    await new Promise<void>((resolve) => health!.listen(config.port, resolve));
  }
  logger.info({ roles: worker.roles, supervised, port: supervised ? null : config.port, adapters: describeAdapters(config) }, 'worker running');
}

main().catch((err) => {
  logger.fatal({ err, component: 'worker' }, 'worker failed to start');
  process.exit(1);
});
