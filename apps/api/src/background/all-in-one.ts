import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { PlatformConfig } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { HashChainedEventStore } from '@app/platform/event-store/hash-chain/hash-chained-event-store';
import type { PlatformRoles } from '@app/platform/platform.module';
import { createApi } from '../app.factory';
import { ReadersSupervisor } from './readers-supervisor';

/** The API beside its readers process: HTTP and commands only. */
export const API_BESIDE_READERS: PlatformRoles = { projector: false, publisher: false, processManagers: false, webhooks: false };

/**
 * What `npm start` runs on one DATA_DIR: the API, and every reader of the log in a second process
 * it supervises (READERS=inline keeps them in this process, sharing its event loop with HTTP).
 */
export async function createAllInOne(config: PlatformConfig, env: NodeJS.ProcessEnv = process.env): Promise<INestApplication> {
  if (config.readers === 'inline') return createApi(config);
  const readers = new ReadersSupervisor({ entry: join(__dirname, 'readers.main.js'), env });
  const app = await createApi(config, API_BESIDE_READERS, readers);
  const store = app.get<EventStore>(EVENT_STORE);
  await readers.start(store instanceof HashChainedEventStore ? store.inner : store);
  return app;
}
