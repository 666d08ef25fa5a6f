import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { createIdempotencyStore } from '@app/platform/adapters';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { IDEMPOTENCY_STORE, type IdempotencyStore } from '@app/platform/idempotency/idempotency-store.port';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * `Idempotency-Key` (decisions §13): the store, chosen with the other adapters
 * (createIdempotencyStore), and the interceptor on every route. Global, so a route that runs the
 * interceptor after its own body parser (`@UseInterceptors(…, IdempotencyInterceptor)`) finds the store.
 */
@Global()
@Module({
  providers: [
    { provide: IDEMPOTENCY_STORE, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => createIdempotencyStore(config) },
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
  ],
  exports: [IDEMPOTENCY_STORE],
})
export class IdempotencyModule implements OnApplicationShutdown {
  constructor(@Inject(IDEMPOTENCY_STORE) private readonly store: IdempotencyStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
