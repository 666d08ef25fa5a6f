import 'reflect-metadata';
import type { Server } from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';
import { describeAdapters } from '@app/platform/adapters';
import { loadConfig, type PlatformConfig } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { processSignals } from '@app/platform/log-reader/process-signals';
import type { FromWorker, ToWorker } from '@app/platform/log-reader/worker-protocol';
import { logger } from '@app/platform/logging/logger';
import { APP_METRICS, defineLogGauges, type AppMetrics } from '@app/platform/metrics/metrics';
import { PlatformLifecycle } from '@app/platform/platform.module';
import { serveProbes } from './health/health-server';
import { lowerPriority } from './lower-priority';
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
      else if (message.type === 'metrics' && metrics)
        void metrics.json().then((m) => send({ type: 'metrics', id: message.id, metrics: m }));
    });
  }
  const loaded = loadConfig();
  // One writer per log file: on the embedded log, npm start's API commits for its worker.
  const config: PlatformConfig =
    supervised && !loaded.eventStoreUrl ? { ...loaded, appendThroughParent: true } : loaded;
  // Before the modules boot, so the threads they start inherit it; a standalone worker's priority is its orchestrator's.
  if (supervised) lowerPriority(config.workerNice);

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
  lifecycle.onFailure(() => exit(1));
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
    health = await serveProbes(app, config, scraped);
  }
  logger.info(
    { roles: worker.roles, supervised, port: supervised ? null : config.port, adapters: describeAdapters(config) },
    'worker running',
  );
}

main().catch((err) => {
  logger.fatal({ err, component: 'worker' }, 'worker failed to start');
  process.exit(1);
});
