import { Module, type DynamicModule } from '@nestjs/common';
import { DeliveryStoreModule } from '@app/platform/delivery-store/delivery-store.module';
import { WebhookWorker } from './webhook-worker';
import { loadWorkerOptions, WORKER_OPTIONS, type WorkerOptions } from './worker-options';

/**
 * The worker as a Nest module, with the delivery store it writes: imported by a worker with the
 * webhooks role (apps/worker, WORKER_ROLES), and nowhere else. Options are read when the app is
 * built, not when this file is imported.
 */
@Module({})
export class WebhookWorkerModule {
  static register(overrides: Partial<WorkerOptions> = {}): DynamicModule {
    return {
      module: WebhookWorkerModule,
      imports: [DeliveryStoreModule],
      providers: [
        { provide: WORKER_OPTIONS, useFactory: () => loadWorkerOptions(process.env, overrides) },
        WebhookWorker,
      ],
    };
  }
}
