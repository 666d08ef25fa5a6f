import { createServer, type Server, type ServerResponse } from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';
import { describeAdapters } from '@app/platform/adapters';
import type { PlatformConfig } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { METRICS_CONTENT_TYPE, type AppMetrics } from '@app/platform/metrics/metrics';
import { WorkerStatus } from '../worker.module';
import { WorkerHealth, type ProbeAnswer } from './worker-health';

const json = (res: ServerResponse, code: number, body: unknown) =>
  res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const send = (res: ServerResponse) => (answer: ProbeAnswer) => json(res, answer.code, answer.body);

/**
 * A standalone worker's port (deploy/): `GET /health/live` and `/health/ready` (terminus, the
 * API's shape), `GET /health` (its report: roles, positions, process managers) and `GET /metrics`
 * (Prometheus). A plain HTTP server: the worker has no Nest HTTP stack, and needs none for four reads.
 */
export async function serveProbes(
  app: INestApplicationContext,
  config: PlatformConfig,
  metrics: AppMetrics,
): Promise<Server> {
  const health = app.get(WorkerHealth);
  const worker = app.get(WorkerStatus);
  const store = app.get<EventStore>(EVENT_STORE);
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET') return void res.writeHead(404).end();
    if (path === '/health/live') return void health.live().then(send(res), () => res.writeHead(500).end());
    if (path === '/health/ready')
      return void health.ready(worker.roles).then(send(res), () => res.writeHead(500).end());
    if (path === '/metrics') {
      return void metrics.text().then(
        (body) => res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE }).end(body),
        () => res.writeHead(500).end(),
      );
    }
    if (path !== '/health') return void res.writeHead(404).end();
    void store.headPosition().then(
      (head) => {
        const { projected, published, ...report } = worker.report();
        const failed = health.failure !== null;
        json(res, failed ? 503 : 200, {
          status: failed ? 'failed' : 'ok',
          process: 'worker',
          adapters: describeAdapters(config),
          log: { head, projected, published },
          ...report,
        });
      },
      () => res.writeHead(503).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(config.port, resolve));
  return server;
}
