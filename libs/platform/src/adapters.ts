import { join } from 'node:path';
import type { Clock } from './clock';
import type { PlatformConfig } from './config/platform-config';
import type { EventStore } from './event-store/event-store.port';
import { SqliteEventStore } from './event-store/sqlite-event-store';
import { HashChainedEventStore } from './event-store/hash-chain/hash-chained-event-store';
import type { ReadStore } from './read-store/read-store.port';
import { SqliteReadStore } from './read-store/sqlite-read-store';
import type { MessageBus } from './bus/message-bus.port';
import type { CoordinationStore } from './coordination/coordination-store.port';
import { SqliteCoordinationStore } from './coordination/sqlite-coordination-store';
import type { RateLimitStore } from './rate-limit/token-bucket';
import { SqliteRateLimitStore } from './rate-limit/sqlite-rate-limit-store';
import type { SnapshotStore } from './snapshots/snapshot-store.port';
import { SqliteSnapshotStore } from './snapshots/sqlite-snapshot-store';
import type { IdempotencyStore } from './idempotency/idempotency-store.port';
import { SqliteIdempotencyStore } from './idempotency/sqlite-idempotency-store';
import type { DeliveryStore } from './delivery-store/delivery-store.port';
import { SqliteDeliveryStore } from './delivery-store/sqlite-delivery-store';
import { SqliteMessageBus } from './bus/sqlite-message-bus';
import { ParentProcessWriter } from './event-store/parent-process-writer';
import { SharedTailEventStore } from './log-reader/shared-tail';

/* eslint-disable @typescript-eslint/no-require-imports -- the production adapters are loaded when chosen (below) */
/**
 * The production adapters are required when their connection variable chooses them, not imported:
 * their drivers (mongodb, kafkajs, @eventstore/db-client with gRPC) took about 30 MB of each
 * process's memory on the embedded stores, where nothing runs them (issue 26: RSS ≤ 256 MB).
 */
const production = {
  esdb: () => require('./event-store/esdb-event-store') as typeof import('./event-store/esdb-event-store'),
  readStore: () => require('./read-store/mongo-read-store') as typeof import('./read-store/mongo-read-store'),
  coordination: () =>
    require('./coordination/mongo-coordination-store') as typeof import('./coordination/mongo-coordination-store'),
  rateLimit: () =>
    require('./rate-limit/mongo-rate-limit-store') as typeof import('./rate-limit/mongo-rate-limit-store'),
  snapshots: () => require('./snapshots/mongo-snapshot-store') as typeof import('./snapshots/mongo-snapshot-store'),
  idempotency: () =>
    require('./idempotency/mongo-idempotency-store') as typeof import('./idempotency/mongo-idempotency-store'),
  deliveries: () =>
    require('./delivery-store/mongo-delivery-store') as typeof import('./delivery-store/mongo-delivery-store'),
  kafka: () => require('./bus/kafka-message-bus') as typeof import('./bus/kafka-message-bus'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * The one place adapters are chosen: each port uses its production adapter when its connection
 * variable is set, and the embedded one in DATA_DIR otherwise. Nothing else imports a driver.
 */
export function createEventStore(
  config: PlatformConfig,
  stored: EventStore = createStoredEventStore(config),
): EventStore {
  // Every append of every path is hash-chained at the port boundary (decisions §10), and every
  // subscriber of the process shares one tail read of the log (log-reader/shared-tail.ts).
  return new HashChainedEventStore(new SharedTailEventStore(stored));
}

/** The adapter under the product's wrappers (createEventStore), where a sibling's appends are committed already chained (parent-process-writer.ts). */
export function createStoredEventStore(config: PlatformConfig): EventStore {
  if (config.eventStoreUrl) return new (production.esdb().EsdbEventStore)(config.eventStoreUrl);
  // The worker npm start supervises commits through the API process's writer (parent-process-writer.ts).
  const writer = config.appendThroughParent
    ? (onCommitted: () => void) => new ParentProcessWriter(onCommitted, process, config.workerMaxInflightAppends)
    : undefined;
  return new SqliteEventStore(join(config.dataDir, 'events.db'), undefined, writer);
}

export function createReadStore(config: PlatformConfig): ReadStore {
  if (config.mongoUrl) return new (production.readStore().MongoReadStore)(config.mongoUrl, config.mongoDatabase);
  return new SqliteReadStore(join(config.dataDir, 'read-models.db'));
}

/**
 * Snapshots of long streams: with MongoDB, in its database (shared by every replica); otherwise in
 * `DATA_DIR/snapshots.db`, beside the embedded log (or as a per-process cache beside EventStoreDB).
 */
export function createSnapshotStore(config: PlatformConfig): SnapshotStore {
  if (config.mongoUrl) return new (production.snapshots().MongoSnapshotStore)(config.mongoUrl, config.mongoDatabase);
  return new SqliteSnapshotStore(join(config.dataDir, 'snapshots.db'));
}

/** Checkpoints and leases of the process managers, in the database every replica's read store shares. */
export function createCoordinationStore(config: PlatformConfig, clock: Clock): CoordinationStore {
  if (config.mongoUrl)
    return new (production.coordination().MongoCoordinationStore)(config.mongoUrl, config.mongoDatabase, clock);
  return new SqliteCoordinationStore(join(config.dataDir, 'read-models.db'), clock);
}

/** Rate-limit buckets where every API replica finds them: MongoDB when set, else a file in DATA_DIR. */
export function createRateLimitStore(config: PlatformConfig, clock: Clock): RateLimitStore {
  if (config.mongoUrl)
    return new (production.rateLimit().MongoRateLimitStore)(config.mongoUrl, config.mongoDatabase, clock);
  return new SqliteRateLimitStore(join(config.dataDir, 'rate-limits.db'), clock);
}

/**
 * Idempotency keys and their stored answers (decisions §13), where every API replica finds them:
 * MongoDB when set (TTL index), else their own file in DATA_DIR.
 */
export function createIdempotencyStore(config: PlatformConfig, clock: Clock): IdempotencyStore {
  if (config.mongoUrl)
    return new (production.idempotency().MongoIdempotencyStore)(config.mongoUrl, config.mongoDatabase, clock);
  return new SqliteIdempotencyStore(join(config.dataDir, 'idempotency.db'), clock);
}

/**
 * The webhook app's delivery store (due deliveries, claims, attempt logs): operational state kept
 * beside the log, never in it. MongoDB when set, else its own file in DATA_DIR.
 */
export function createDeliveryStore(config: PlatformConfig): DeliveryStore {
  if (config.mongoUrl) return new (production.deliveries().MongoDeliveryStore)(config.mongoUrl, config.mongoDatabase);
  return new SqliteDeliveryStore(join(config.dataDir, 'deliveries.db'));
}

export function createMessageBus(config: PlatformConfig): MessageBus {
  if (config.kafkaBrokers?.length) {
    return new (production.kafka().KafkaMessageBus)({
      brokers: config.kafkaBrokers,
      clientId: config.kafkaClientId,
      partitions: config.kafkaTopicPartitions,
      tlsCaFile: config.kafkaTlsCaFile,
    });
  }
  return new SqliteMessageBus(join(config.dataDir, 'bus.db'));
}

export function describeAdapters(config: PlatformConfig): Record<string, string> {
  return {
    event_store: config.eventStoreUrl ? 'eventstoredb' : 'sqlite',
    read_store: config.mongoUrl ? 'mongodb' : 'sqlite',
    bus: config.kafkaBrokers?.length ? 'kafka' : 'sqlite',
  };
}
