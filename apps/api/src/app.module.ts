import { DynamicModule, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { TerminusModule } from '@nestjs/terminus';
import { DeliveryStoreModule } from '@app/platform/delivery-store/delivery-store.module';
import type { PlatformConfig } from '@app/platform/config/platform-config';
import { NO_READERS, PlatformModule, type PlatformOptions, type PlatformRoles } from '@app/platform/platform.module';
import type { Clock } from '@app/platform/clock';
import { AccessModule } from './access/access.module';
import { AccountsModule } from './accounts/accounts.module';
import { AdminModule } from './admin/admin.module';
import { AuditModule } from './audit/audit.module';
import { BankCodesModule } from './bank-codes/bank-codes.module';
import { CollectionsModule } from './collections/collections.module';
import { CounterpartiesModule } from './counterparties/counterparties.module';
import { HealthController } from './health/health.controller';
import { ReadinessIndicators } from './health/readiness';
import { ApiMetrics } from './metrics/api-metrics';
import { MetricsController } from './metrics/metrics.controller';
import { httpMetrics } from './http/http-metrics.middleware';
import { requestLogging } from './http/logging';
import { OnboardingModule } from './onboarding/onboarding.module';
import { bodyParsing } from './http/body-parsing.middleware';
import { requestId } from './http/request-id.middleware';
import { requestShape } from './http/request-shape.middleware';
import { apiVersion } from './http/api-version.middleware';
import { CorsForClientApps, SecretKeyOrigin } from './http/browser-access';
import { WriteAdmission, WriteLoad } from './http/overload/write-admission.middleware';
import { LoopDelay } from './http/overload/loop-delay';
import { RateLimitModule } from './http/rate-limit/rate-limit.module';
import { IdempotencyModule } from './http/idempotency/idempotency.module';
import { TransfersModule } from './transfers/transfers.module';
import { CardsModule } from './cards/cards.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { EventStreamModule } from './audit/event-stream/event-stream.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { DocsModule } from './openapi/docs.controller';
import { READ_MODELS } from '@app/read-models/read-models';
import { WORKER_SUPERVISOR, type WorkerSupervisor } from './background/worker-supervisor';

/** Feature modules of the API; their read models are listed in read-models.ts. */
export const FEATURE_MODULES = [
  AccessModule,
  OnboardingModule,
  AccountsModule,
  CounterpartiesModule,
  BankCodesModule,
  WebhooksModule,
  TransfersModule,
  CardsModule,
  CollectionsModule,
  AdminModule,
  AuditModule,
  EventStreamModule,
  DashboardModule,
];

export interface ApiOptions {
  /** `npm start`'s supervised worker, reported by GET /health. */
  readonly worker?: WorkerSupervisor | null;
  /**
   * Tests only (test/support/test-app.ts): the worker's readers and role modules in this same
   * process, so a test drives everything through one app. Never in a deployment: the API runs no
   * reader of the log.
   */
  readonly inProcessWorker?: {
    readonly readers: PlatformRoles;
    readonly modules: NonNullable<DynamicModule['imports']>;
  };
  /** Tests only: the clock the app runs on (a TestClock they move); the machine's clock otherwise. */
  readonly clock?: Clock;
  /** Tests only: wraps the read store adapter (PlatformOptions.readStore). */
  readonly readStore?: PlatformOptions['readStore'];
}

@Module({})
export class AppModule implements NestModule {
  static forRoot(config: PlatformConfig, options: ApiOptions = {}): DynamicModule {
    const inProcess = options.inProcessWorker;
    return {
      module: AppModule,
      imports: [
        // Request logs (http/logging.ts): global, so its middleware runs before this module's.
        requestLogging(),
        PlatformModule.forRoot(inProcess?.readers ?? NO_READERS, config, READ_MODELS, {
          clock: options.clock,
          readStore: options.readStore,
        }),
        CqrsModule.forRoot(),
        RateLimitModule,
        IdempotencyModule,
        // Probes (/health/live, /health/ready) and the delivery store they check.
        TerminusModule.forRoot({ logger: false }),
        DeliveryStoreModule,
        ...FEATURE_MODULES,
        // GET /openapi.json and the docs page /docs (docs/decisions/infrastructure.md, "OpenAPI").
        DocsModule,
        ...(inProcess?.modules ?? []),
      ],
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: WORKER_SUPERVISOR, useValue: options.worker ?? null },
        WriteLoad,
        LoopDelay,
        ReadinessIndicators,
        ApiMetrics,
      ],
    };
  }

  /**
   * HTTP metrics, the request id and trace, write admission (503 `overloaded` past the bound),
   * strict HTTP (405, 415), body parsing and shape checks run as Nest middleware, before
   * authentication, so their refusals reach the error envelope filter (and are counted).
   */
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(
        httpMetrics,
        requestId,
        apiVersion,
        CorsForClientApps,
        SecretKeyOrigin,
        WriteAdmission,
        bodyParsing(),
        requestShape,
      )
      .forRoutes('*path');
  }
}
