import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { PlatformConfig, WorkerRole } from '@app/platform/config/platform-config';
import { PinoNestLogger } from '@app/platform/logging/pino-nest-logger';
import { WorkerHealthModule } from './health/worker-health';
import { WorkerModule } from './worker.module';

/**
 * Builds a worker as `npm run start:worker` runs it, with `roles` (default: WORKER_ROLES from the
 * config): a Nest application context without HTTP. Its readers have started when this resolves.
 * Tests use the same function.
 */
export async function createWorker(
  config: PlatformConfig,
  roles: readonly WorkerRole[] = config.workerRoles,
): Promise<INestApplicationContext> {
  // The probes (terminus) beside the worker's modules: a standalone worker serves them (main.ts).
  const root = { module: WorkerHealthModule, imports: [WorkerModule.forRoot(config, roles)] };
  const app = await NestFactory.createApplicationContext(root, { logger: new PinoNestLogger() });
  await app.init();
  return app;
}
