import { DynamicModule, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ProcessManagersModule } from '@app/application/process-managers';
import type { PlatformConfig } from '@app/platform/config/platform-config';
import { PlatformModule, type PlatformRoles } from '@app/platform/platform.module';
import { AccessModule } from './access/access.module';
import { AccountsModule } from './accounts/accounts.module';
import { AdminModule } from './admin/admin.module';
import { AuditModule } from './audit/audit.module';
import { BankCodesModule } from './bank-codes/bank-codes.module';
import { CollectionsModule } from './collections/collections.module';
import { CounterpartiesModule } from './counterparties/counterparties.module';
import { HealthController } from './health/health.controller';
import { OnboardingModule } from './onboarding/onboarding.module';
import { bodyParsing } from './http/body-parsing.middleware';
import { requestId } from './http/request-id.middleware';
import { requestShape } from './http/request-shape.middleware';
import { RateLimitModule } from './http/rate-limit/rate-limit.module';
import { TransfersModule } from './transfers/transfers.module';
import { CardsModule } from './cards/cards.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { WebhookWorkerModule } from '@app/webhook-delivery/webhook-worker.module';
import { READ_MODELS } from '@app/read-models/read-models';
import { BACKGROUND_READERS, type ReadersSupervisor } from './background/readers-supervisor';

/** Feature modules of the API; their read models are listed in read-models.ts. */
export const FEATURE_MODULES = [AccessModule, OnboardingModule, AccountsModule, CounterpartiesModule, BankCodesModule, WebhooksModule, WebhookWorkerModule.register(), TransfersModule, CardsModule, CollectionsModule, AdminModule, AuditModule];

@Module({})
export class AppModule implements NestModule {
  /** `readers`: the readers process `npm start` supervises beside this API, if any. */
  static forRoot(config: PlatformConfig, roles: PlatformRoles = { projector: true, publisher: true }, readers: ReadersSupervisor | null = null): DynamicModule {
    return {
      module: AppModule,
      imports: [PlatformModule.forRoot(roles, config, READ_MODELS), CqrsModule.forRoot(), RateLimitModule, ProcessManagersModule, ...FEATURE_MODULES],
      controllers: [HealthController],
      providers: [{ provide: BACKGROUND_READERS, useValue: readers }],
    };
  }

  /**
   * Strict HTTP (405, 415), body parsing and shape checks run as Nest middleware, before
   * authentication, so their refusals reach the error envelope filter.
   */
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(requestId, bodyParsing(), requestShape).forRoutes('*path');
  }
}
