import { createServer, type Server } from 'node:http';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { logger } from '@app/platform/logging/logger';
import {
  APP_METRICS,
  METRICS_CONTENT_TYPE,
  defineLogGauges,
  type AppMetrics,
  type LogPositions,
} from '@app/platform/metrics/metrics';
import { PlatformLifecycle } from '@app/platform/platform.module';
import { WORKER_SUPERVISOR, type WorkerSupervisor } from '../background/worker-supervisor';
import { WriteLoad } from '../http/overload/write-admission.middleware';

/**
 * The API's `/metrics` (docs/decisions/infrastructure.md, "Operations"): this process's series
 * (HTTP, appends, process), its gauges (the log's positions as /health reads them, the write
 * load; the ledger's, defined by the audit module), and under `npm start` the supervised
 * worker's series, asked for over IPC at each scrape and summed in (projection, bus, process
 * managers, webhook deliveries). With `METRICS_PORT` set they are served on that port only (an
 * internal one: deploy/ scrapes it), otherwise on the API's port.
 */
@Injectable()
export class ApiMetrics implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: Server | null = null;

  constructor(
    @Inject(APP_METRICS) private readonly metrics: AppMetrics,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly platform: PlatformLifecycle,
    private readonly writes: WriteLoad,
    @Inject(WORKER_SUPERVISOR) private readonly worker: WorkerSupervisor | null,
  ) {
    defineLogGauges(metrics, () => this.positions());
    metrics.gauge({
      name: 'payments_writes_in_flight',
      help: 'Write requests this API works on now (503 overloaded past MAX_INFLIGHT_WRITES)',
      read: () => [{ value: writes.inFlight }],
    });
    metrics.gauge({
      name: 'payments_writes_refused',
      help: 'Write requests refused 503 overloaded since this API started',
      read: () => [{ value: writes.refused }],
    });
    const supervised = worker;
    if (supervised) metrics.addSource(() => supervised.metrics());
  }

  readonly contentType = METRICS_CONTENT_TYPE;

  /** Whether `GET /metrics` answers on the API's own port (no METRICS_PORT). */
  get onApiPort(): boolean {
    return this.config.metricsPort === undefined;
  }

  text(): Promise<string> {
    return this.metrics.text();
  }

  /** The port the metrics listener took (METRICS_PORT=0 takes a free one), or null without it. */
  get port(): number | null {
    const address = this.server?.address();
    return address && typeof address === 'object' ? address.port : null;
  }

  /** As GET /health computes them: the supervised worker's readers, else the positions stored (live ones in a test app). */
  private async positions(): Promise<LogPositions> {
    const head = await this.store.headPosition();
    if (this.worker) {
      const { report } = await this.worker.status();
      return { head, projected: report?.projected ?? null, published: report?.published ?? null };
    }
    const stored = await this.platform.storedPositions();
    return {
      head,
      projected: Math.max(stored.projected, this.platform.projector.lastPosition),
      published: Math.max(stored.published, this.platform.publisher.lastPosition),
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.metricsPort === undefined) return;
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') return void res.writeHead(404).end();
      this.text().then(
        (body) => res.writeHead(200, { 'content-type': this.contentType }).end(body),
        (err: unknown) => {
          logger.error({ err }, 'metrics scrape failed');
          res.writeHead(500).end();
        },
      );
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.metricsPort, () => resolve());
    });
    logger.info({ port: this.port }, 'metrics listening');
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
