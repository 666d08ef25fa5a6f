import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { PlatformConfig } from '@app/platform/config/platform-config';
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
  await readers.start();
  return createApi(config, API_BESIDE_READERS, readers);
}
