import { Module, type DynamicModule } from '@nestjs/common';
import { WebhookWorker } from './webhook-worker';
import { loadWorkerOptions, WORKER_OPTIONS, type WorkerOptions } from './worker-options';

/**
 * The worker as a Nest module: imported by the all-in-one API (runs unless WEBHOOKS_EMBEDDED=false)
 * and by the standalone `apps/webhooks` process (always runs). Options are read when the app is
 * built, not when this file is imported.
 */
@Module({})
export class WebhookWorkerModule {
  static register(overrides: Partial<WorkerOptions> = {}): DynamicModule {
    return {
      module: WebhookWorkerModule,
      providers: [{ provide: WORKER_OPTIONS, useFactory: () => loadWorkerOptions(process.env, overrides) }, WebhookWorker],
    };
  }
}
