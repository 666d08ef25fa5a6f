import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { createIdempotencyStore } from '@app/platform/adapters';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { IDEMPOTENCY_STORE, type IdempotencyStore } from '@app/platform/idempotency/idempotency-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * `Idempotency-Key` (decisions §13): the store, chosen with the other adapters
 * (createIdempotencyStore), and the interceptor, which the API's global interceptor runs on every
 * route (request.interceptor.ts). Global, so a route that runs the interceptor after its own body
 * parser (`@UseInterceptors(…, IdempotencyInterceptor)`) finds the store.
 */
@Global()
@Module({
  providers: [
    {
      provide: IDEMPOTENCY_STORE,
      inject: [PLATFORM_CONFIG, CLOCK],
      useFactory: (config: PlatformConfig, clock: Clock) => createIdempotencyStore(config, clock),
    },
    IdempotencyInterceptor,
  ],
  exports: [IDEMPOTENCY_STORE, IdempotencyInterceptor],
})
export class IdempotencyModule implements OnApplicationShutdown {
  constructor(@Inject(IDEMPOTENCY_STORE) private readonly store: IdempotencyStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
