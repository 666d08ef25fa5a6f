import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { PlatformConfig } from '@app/platform/config/platform-config';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { STORED_EVENT_STORE } from '@app/platform/event-store/parent-process-writer';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { createApi } from '../app.factory';
import { WorkerSupervisor, workerFlags } from './worker-supervisor';

/** The compiled worker (apps/worker), beside this app in dist/: a path, not an import (apps never import apps). */
export const WORKER_ENTRY = join(__dirname, '..', '..', '..', 'worker', 'src', 'main.js');

/**
 * What `npm start` runs on one DATA_DIR: the API (HTTP and commands, no reader of the log), and one
 * worker with every role, which it supervises (worker-supervisor.ts).
 */
export async function createApiWithWorker(
  config: PlatformConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<INestApplication> {
  // Every role, whatever WORKER_ROLES says: npm start's one worker reads the whole log.
  const worker = new WorkerSupervisor({
    entry: WORKER_ENTRY,
    env: { ...env, WORKER_ROLES: '' },
    execArgv: workerFlags(config.workerMaxHeapMb),
    heartbeat: {
      intervalMs: Math.max(100, Math.floor(config.workerHeartbeatTimeoutMs / 5)),
      timeoutMs: config.workerHeartbeatTimeoutMs,
    },
  });
  const app = await createApi(config, { worker });
  const stored = app.get<EventStore>(STORED_EVENT_STORE);
  // Every append of the file is this process's or its worker's, committed here: where a stream
  // ends is known without asking SQLite (stream-ends.ts). A second writer on DATA_DIR is not run.
  if (stored instanceof SqliteEventStore) stored.trustStreamEnds();
  await worker.start(stored);
  return app;
}
