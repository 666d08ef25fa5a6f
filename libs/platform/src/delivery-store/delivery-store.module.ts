import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { createDeliveryStore } from '../adapters';
import { PLATFORM_CONFIG, type PlatformConfig } from '../config/platform-config';
import { DELIVERY_STORE, type DeliveryStore } from './delivery-store.port';

/**
 * The delivery store for whoever needs it: the webhook worker (writes) and the API's webhook
 * queries (log list, statistics). One instance per application, closed with it.
 */
@Module({
  providers: [
    {
      provide: DELIVERY_STORE,
      inject: [PLATFORM_CONFIG],
      useFactory: (config: PlatformConfig) => createDeliveryStore(config),
    },
  ],
  exports: [DELIVERY_STORE],
})
export class DeliveryStoreModule implements OnApplicationShutdown {
  constructor(@Inject(DELIVERY_STORE) private readonly store: DeliveryStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
