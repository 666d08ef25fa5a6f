import { Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { PlatformConfig } from '@app/platform/config/platform-config';
import { PlatformModule } from '@app/platform/platform.module';
import { PinoNestLogger } from '@app/platform/logging/pino-nest-logger';
import { READ_MODELS } from '@app/read-models/read-models';
import { WebhookWorkerModule } from '@app/webhook-delivery/webhook-worker.module';
import type { WorkerOptions } from '@app/webhook-delivery/worker-options';

/** The standalone deployment: no HTTP, no projector, no publisher; it reads the bus and the log. */
@Module({})
class WebhooksAppModule {
  static forRoot(config: PlatformConfig, overrides: Partial<WorkerOptions>): DynamicModule {
    return {
      module: WebhooksAppModule,
      imports: [PlatformModule.forRoot({ projector: false, publisher: false }, config, READ_MODELS), WebhookWorkerModule.register({ ...overrides, enabled: true })],
    };
  }
}

/** Builds the worker exactly as `npm run start:webhooks` runs it; tests use the same function. */
export async function createWebhookWorker(config: PlatformConfig, overrides: Partial<WorkerOptions> = {}): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WebhooksAppModule.forRoot(config, overrides), { logger: new PinoNestLogger() });
  app.enableShutdownHooks();
  await app.init();
  return app;
}
