import { join } from 'node:path';
import type { PlatformConfig } from './config/platform-config';
import type { EventStore } from './event-store/event-store.port';
import { SqliteEventStore } from './event-store/sqlite-event-store';
import type { ReadStore } from './read-store/read-store.port';
import { SqliteReadStore } from './read-store/sqlite-read-store';
import type { MessageBus } from './bus/message-bus.port';
import { SqliteMessageBus } from './bus/sqlite-message-bus';

/**
 * The one place adapters are chosen: each port uses its production adapter when its connection
 * variable is set, and the embedded one in DATA_DIR otherwise.
 */
export function createEventStore(config: PlatformConfig): EventStore {
  return new SqliteEventStore(join(config.dataDir, 'events.db'));
}

export function createReadStore(config: PlatformConfig): ReadStore {
  return new SqliteReadStore(join(config.dataDir, 'read-models.db'));
}

export function createMessageBus(config: PlatformConfig): MessageBus {
  return new SqliteMessageBus(join(config.dataDir, 'bus.db'));
}

export function describeAdapters(config: PlatformConfig): Record<string, string> {
  return {
    event_store: config.eventStoreUrl ? 'eventstoredb' : 'sqlite',
    read_store: config.mongoUrl ? 'mongodb' : 'sqlite',
    bus: config.kafkaBrokers ? 'kafka' : 'sqlite',
  };
}
