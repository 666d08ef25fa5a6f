import {
  DynamicModule,
  Global,
  Inject,
  Injectable,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import {
  createCoordinationStore,
  createEventStore,
  createStoredEventStore,
  createMessageBus,
  createReadStore,
  createSnapshotStore,
} from './adapters';
import { BusPublisher, PUBLISHER_CHECKPOINT } from './bus/bus-publisher';
import { MESSAGE_BUS, type MessageBus } from './bus/message-bus.port';
import { CLOCK, systemClock, type Clock } from './clock';
import { PLATFORM_CONFIG, type PlatformConfig, type WorkerRole } from './config/platform-config';
import { CHECKPOINT_STORE } from './coordination/checkpoint-store.port';
import type { CoordinationStore } from './coordination/coordination-store.port';
import { LEASE_STORE } from './coordination/lease-store.port';
import { EVENT_STORE, type EventStore } from './event-store/event-store.port';
import { STORED_EVENT_STORE } from './event-store/parent-process-writer';
import { SqliteEventStore } from './event-store/sqlite-event-store';
import { logger } from './logging/logger';
import { APP_METRICS, AppMetrics } from './metrics/metrics';
import { PROJECTIONS, type Projection } from './read-store/projection';
import { Projector } from './read-store/projector';
import { indexesOf, type CollectionIndexes } from './read-store/read-index';
import { RAW_READ_STORE, READ_STORE, type ReadStore } from './read-store/read-store.port';
import { consistentReadStore } from './read-store/consistency/consistent-read-store';
import { SECRET_BOX, SecretBox } from './security/secret-box';
import { SNAPSHOT_STORE, type SnapshotStore } from './snapshots/snapshot-store.port';
import { StreamFolds, withFolds } from './folds/stream-folds';

/**
 * The readers of the log this process runs. The worker runtime (apps/worker) sets them from its
 * roles (`WORKER_ROLES`); the API runs none (`NO_READERS`). The projector and the publisher are
 * started here; process managers and webhooks run where their modules are imported, and these
 * flags say so to the code that asks (the webhook scheduler wakes on a projector batch beside it).
 */
export interface PlatformRoles {
  /** Build read models in this process. */
  readonly projector: boolean;
  /** Forward the log to the bus from this process. */
  readonly publisher: boolean;
  readonly processManagers?: boolean;
  readonly webhooks?: boolean;
}

export const NO_READERS: PlatformRoles = {
  projector: false,
  publisher: false,
  processManagers: false,
  webhooks: false,
};

export function readersOf(roles: readonly WorkerRole[]): PlatformRoles {
  return {
    projector: roles.includes('projector'),
    publisher: roles.includes('publisher'),
    processManagers: roles.includes('process-managers'),
    webhooks: roles.includes('webhooks'),
  };
}

export const PLATFORM_ROLES = Symbol('PLATFORM_ROLES');

/** What an app or a test chooses when it composes the platform, beside the configuration. */
export interface PlatformOptions {
  /** The clock the process runs on (default the machine's); tests give a TestClock they move. */
  readonly clock?: Clock;
  /** Tests only: wraps the read store adapter, so every reader of this process shares the wrapper (test/support/held-back-read-store.ts). */
  readonly readStore?: (adapter: ReadStore) => ReadStore;
}

/** Starts the background readers of the log this process is configured to run, and closes adapters. */
@Injectable()
export class PlatformLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly projector: Projector;
  readonly publisher: BusPublisher;
  private readonly failureListeners: Array<(component: string, error: unknown) => void> = [];
  private failure: { component: string; error: unknown } | null = null;
  private readonly indexes: CollectionIndexes[];
  private readonly projections: readonly Projection[];

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(STORED_EVENT_STORE) private readonly stored: EventStore,
    @Inject(RAW_READ_STORE) private readonly readStore: ReadStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(PLATFORM_ROLES) private readonly roles: PlatformRoles,
    @Inject(PROJECTIONS) projections: readonly Projection[],
    @Inject(CHECKPOINT_STORE) private readonly coordination: CoordinationStore,
    @Inject(SNAPSHOT_STORE) private readonly snapshots: SnapshotStore,
  ) {
    this.indexes = indexesOf(projections);
    this.projections = projections;
    const onError = (component: string) => (err: unknown) => {
      logger.error({ err, component }, 'background reader stopped');
      this.failure ??= { component, error: err };
      for (const listener of this.failureListeners) listener(component, err);
    };
    this.projector = new Projector(store, readStore, projections, { onError: onError('projector') });
    this.publisher = new BusPublisher(store, bus, readStore, { onError: onError('publisher') });
  }

  async onApplicationBootstrap(): Promise<void> {
    // Before any list is served or written: indexes are created at startup, never on a request.
    await this.readStore.ensureIndexes(this.indexes);
    if (this.roles.projector) await this.projector.start();
    if (this.roles.publisher) await this.publisher.start();
  }

  /** A worker process exits when its reader stops, so that its supervisor starts it again. */
  onFailure(listener: (component: string, error: unknown) => void): void {
    this.failureListeners.push(listener);
    if (this.failure) listener(this.failure.component, this.failure.error);
  }

  /** For tests and read-your-writes in one process: waits until read models include the head. */
  async settle(): Promise<void> {
    if (this.roles.projector) await this.projector.waitFor();
  }

  /**
   * How far the read models and the bus are, from the checkpoints the projector and the publisher
   * store (wherever they run): what a process without those readers reports in /health.
   */
  async storedPositions(): Promise<{ projected: number; published: number }> {
    const checkpoints = await Promise.all(this.projections.map((p) => this.readStore.getCheckpoint(p.name)));
    return {
      projected: checkpoints.length ? Math.min(...checkpoints) : 0,
      published: await this.readStore.getCheckpoint(PUBLISHER_CHECKPOINT),
    };
  }

  /** Appends of this process accepted by the embedded log's writer and not committed yet (0 on EventStoreDB). */
  pendingAppends(): number {
    return this.stored instanceof SqliteEventStore ? this.stored.pendingAppends.own : 0;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.projector.stop();
    await this.publisher.stop();
    await this.bus.close();
    await this.readStore.close();
    await this.coordination.close();
    await this.snapshots.close();
    await this.store.close();
  }
}

@Global()
@Module({})
export class PlatformModule {
  static forRoot(
    roles: PlatformRoles,
    config: PlatformConfig,
    projections: readonly Projection[],
    { clock = systemClock, readStore = (adapter) => adapter }: PlatformOptions = {},
  ): DynamicModule {
    return {
      module: PlatformModule,
      providers: [
        { provide: PLATFORM_CONFIG, useValue: config },
        { provide: PLATFORM_ROLES, useValue: roles },
        // The one clock (clock/clock.ts): tests build the app with a TestClock and move it.
        { provide: CLOCK, useValue: clock },
        // The store every handler and reader of this process shares, with its folds: the fold cache, the per-stream queues and the snapshots (folds/stream-folds.ts).
        {
          provide: EVENT_STORE,
          inject: [SNAPSHOT_STORE, STORED_EVENT_STORE],
          useFactory: (snapshots: SnapshotStore, stored: EventStore) =>
            withFolds(
              createEventStore(config, stored),
              new StreamFolds({
                maxBytes: config.foldCacheMaxBytes,
                snapshots,
                snapshotEvery: config.snapshotEvery,
                clock,
              }),
            ),
        },
        // The adapter under the store's wrappers: npm start's worker commits through it (parent-process-writer.ts).
        { provide: STORED_EVENT_STORE, useFactory: () => createStoredEventStore(config) },
        { provide: RAW_READ_STORE, useFactory: () => readStore(createReadStore(config)) },
        {
          provide: READ_STORE,
          inject: [RAW_READ_STORE, EVENT_STORE, PlatformLifecycle],
          useFactory: (raw: ReadStore, store: EventStore, lifecycle: PlatformLifecycle) =>
            consistentReadStore({
              raw,
              store,
              projections,
              projector: roles.projector ? lifecycle.projector : null,
              timeoutMs: config.readConsistencyTimeoutMs,
            }),
        },
        { provide: MESSAGE_BUS, useFactory: () => createMessageBus(config) },
        // One adapter behind both ports: process managers' checkpoints and leases.
        { provide: CHECKPOINT_STORE, useFactory: () => createCoordinationStore(config, clock) },
        { provide: LEASE_STORE, useExisting: CHECKPOINT_STORE },
        { provide: SNAPSHOT_STORE, useFactory: () => createSnapshotStore(config) },
        { provide: SECRET_BOX, useFactory: () => new SecretBox(config.masterKey) },
        { provide: PROJECTIONS, useValue: projections },
        // The application's scrape-time gauges (metrics/metrics.ts); each part defines its own.
        { provide: APP_METRICS, useFactory: () => new AppMetrics() },
        PlatformLifecycle,
      ],
      exports: [
        PLATFORM_CONFIG,
        PLATFORM_ROLES,
        CLOCK,
        EVENT_STORE,
        STORED_EVENT_STORE,
        READ_STORE,
        RAW_READ_STORE,
        MESSAGE_BUS,
        CHECKPOINT_STORE,
        LEASE_STORE,
        SECRET_BOX,
        PROJECTIONS,
        APP_METRICS,
        PlatformLifecycle,
      ],
    };
  }
}
