import {
  AggregatorRegistry,
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type MetricObjectWithValues,
  type MetricValue,
} from 'prom-client';
import { logger } from '../logging/logger';

/**
 * Prometheus metrics (docs/decisions/infrastructure.md, "Operations"). Two kinds of series:
 *
 * - **Process series**, counted where things happen, in this module's one registry per process:
 *   HTTP requests, appends and conflicts, webhook attempts, and prom-client's process metrics
 *   (CPU, memory, event loop lag, GC). Counters only grow for the life of the process.
 * - **Application gauges**, read when scraped (`AppMetrics`, one per Nest application): log
 *   positions and lags, process-manager backlog, ledger totals. Each is read from the stores the
 *   application already has, with a time bound, so a scrape never waits on a stuck store.
 */
export const processRegistry = new Registry();
collectDefaultMetrics({ register: processRegistry });

/** Seconds: from a cache hit on a fold (ms) to a slow webhook receiver (its timeout is 10 s). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route template (`unmatched` for no route) and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [processRegistry],
});

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from the request reaching the API to the last byte of its answer, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [processRegistry],
});

/** `ok`: written; `conflict`: the expected revision did not match (the caller reads on and decides again); `error`: anything else. */
export const eventStoreAppends = new Counter({
  name: 'payments_event_store_appends_total',
  help: 'Appends to the event store by this process, by outcome: ok, conflict (wrong expected revision), error',
  labelNames: ['outcome'] as const,
  registers: [processRegistry],
});

export const eventStoreAppendedEvents = new Counter({
  name: 'payments_event_store_appended_events_total',
  help: 'Events written by this process',
  registers: [processRegistry],
});

/** `succeeded`: 2xx; `failed`: any other status; `error`: no answer (refused destination, network error, timeout). */
export const webhookAttempts = new Counter({
  name: 'payments_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome: succeeded (2xx), failed (another status), error (no answer)',
  labelNames: ['outcome'] as const,
  registers: [processRegistry],
});

export const webhookAttemptDuration = new Histogram({
  name: 'payments_webhook_delivery_duration_seconds',
  help: 'Duration of webhook delivery attempts, by outcome',
  labelNames: ['outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [processRegistry],
});

/** One labelled value of a gauge read at scrape time. */
export interface GaugeSample {
  readonly labels?: Record<string, string>;
  readonly value: number;
}

export interface GaugeDefinition {
  readonly name: string;
  readonly help: string;
  readonly labelNames?: readonly string[];
  /** Read at each scrape; a read that throws or outlasts the bound leaves the gauge without samples. */
  readonly read: () => Promise<readonly GaugeSample[]> | readonly GaugeSample[];
}

/** How long one gauge may take to read before the scrape goes on without it. */
export const GAUGE_READ_TIMEOUT_MS = 2_000;

/** Metrics as JSON (prom-client's `getMetricsAsJSON`): what a worker sends npm start's API over IPC. */
export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

export const METRICS_CONTENT_TYPE = processRegistry.contentType;

/**
 * The scrape-time gauges of one application (an API or a worker), beside the process series. A
 * provider of the platform module: the parts of the application that know a figure define its
 * gauge (`gauge`), and `/metrics` renders them (`text`). `extra` adds series read elsewhere: npm
 * start's API adds its worker's, summed per series with prom-client's aggregator (the worker
 * process's counters and the API's add up to one target; process metrics use their own rules).
 */
export class AppMetrics {
  private readonly registry = new Registry();
  private readonly sources: Array<() => Promise<MetricsJson | null>> = [];

  /** Defines a gauge read at every scrape. A name defined twice in one application is a programming error. */
  gauge(definition: GaugeDefinition): void {
    const read = definition.read;
    const name = definition.name;
    new Gauge({
      name,
      help: definition.help,
      labelNames: [...(definition.labelNames ?? [])],
      registers: [this.registry],
      async collect() {
        this.reset();
        let samples: readonly GaugeSample[];
        try {
          samples = await withTimeout(Promise.resolve(read()), GAUGE_READ_TIMEOUT_MS);
        } catch (err) {
          logger.debug({ err, metric: name }, 'metric not read; the scrape goes on without it');
          return;
        }
        for (const s of samples) {
          if (s.labels) this.set(s.labels, s.value);
          else this.set(s.value);
        }
      },
    });
  }

  /** Series from elsewhere (npm start's worker), merged into each scrape; null or a failure adds nothing. */
  addSource(source: () => Promise<MetricsJson | null>): void {
    this.sources.push(source);
  }

  /** This process's series and this application's gauges, as JSON (without the extra sources). */
  async json(): Promise<MetricsJson> {
    return [...(await processRegistry.getMetricsAsJSON()), ...(await this.registry.getMetricsAsJSON())];
  }

  /** The Prometheus text exposition: this process, this application, and the extra sources. */
  async text(): Promise<string> {
    const own = await this.json();
    const others = (await Promise.all(this.sources.map((s) => s().catch(() => null)))).filter(
      (m): m is MetricsJson => m !== null && m.length > 0,
    );
    if (!others.length) return Registry.merge([processRegistry, this.registry]).metrics();
    return AggregatorRegistry.aggregate([own, ...others]).metrics();
  }
}

export const APP_METRICS = Symbol('APP_METRICS');

export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Where the log's head is and how far its readers are (null: not known to this process), as /health reports it. */
export interface LogPositions {
  readonly head: number;
  readonly projected: number | null;
  readonly published: number | null;
}

/**
 * `payments_log_position{reader="head|projected|published"}` and `payments_log_lag{reader=
 * "projector|publisher"}` (head minus the reader's position), read once per scrape. Positions are
 * the log's own: consecutive on the embedded log, commit positions (bytes) on EventStoreDB, so a lag
 * compares with itself over time rather than across adapters.
 */
export function defineLogGauges(metrics: AppMetrics, read: () => Promise<LogPositions>): void {
  let last: { at: number; positions: Promise<LogPositions> } | null = null;
  const once = () => {
    // How long since the last read (a duration the process measures of itself), not the time of day: performance.now().
    if (!last || performance.now() - last.at > 500) last = { at: performance.now(), positions: read() };
    return last.positions;
  };
  metrics.gauge({
    name: 'payments_log_position',
    help: 'Position of the head of the log and of the readers this process knows of (projector: read models; publisher: the bus)',
    labelNames: ['reader'],
    read: async () => {
      const p = await once();
      return [
        { labels: { reader: 'head' }, value: p.head },
        ...known('projected', p.projected),
        ...known('published', p.published),
      ];
    },
  });
  metrics.gauge({
    name: 'payments_log_lag',
    help: 'How far behind the head of the log a reader is, in log positions: projector (read models) and publisher (the bus)',
    labelNames: ['reader'],
    read: async () => {
      const p = await once();
      return [
        ...known('projector', p.projected === null ? null : Math.max(0, p.head - p.projected)),
        ...known('publisher', p.published === null ? null : Math.max(0, p.head - p.published)),
      ];
    },
  });
}

const known = (reader: string, value: number | null): GaugeSample[] =>
  value === null ? [] : [{ labels: { reader }, value }];
