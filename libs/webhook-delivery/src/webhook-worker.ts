import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Deliveries } from '@app/application/webhooks';
import { MESSAGE_BUS, type MessageBus } from '@app/platform/bus/message-bus.port';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { PLATFORM_ROLES, PlatformLifecycle, type PlatformRoles } from '@app/platform/platform.module';
import { logger } from '@app/platform/logging/logger';
import { RAW_READ_STORE, type ReadStore } from '@app/platform/read-store/read-store.port';
import { SECRET_BOX, type SecretBox } from '@app/platform/security/secret-box';
import { BusConsumer } from './consumer/bus-consumer';
import { EventRouter } from './consumer/event-router';
import { backfillWebhookIndex } from './consumer/index-backfill';
import { WebhookDirectory } from './consumer/webhook-directory';
import { attemptDelivery } from './delivery/attempt';
import { DeliveryScheduler } from './delivery/scheduler';
import { PUBLIC_EVENTS } from './mapping/public-events';
import { WORKER_OPTIONS, type WorkerOptions } from './worker-options';

/**
 * The delivery worker: a consumer-group member that routes events to webhooks from the log, and
 * the scheduler that makes the deliveries (it alone reads a read model, the due list).
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private consumer: BusConsumer | null = null;
  private scheduler: DeliveryScheduler | null = null;
  private offBatch: () => void = () => undefined;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(RAW_READ_STORE) private readonly readStore: ReadStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(WORKER_OPTIONS) private readonly options: WorkerOptions,
    @Inject(PLATFORM_ROLES) private readonly roles: PlatformRoles,
    private readonly platform: PlatformLifecycle,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.options.enabled || this.roles.webhooks === false) return;
    const deliveries = new Deliveries(this.store);
    const schedule = this.config.webhookRetryScheduleMs;
    const router = new EventRouter(this.store, new WebhookDirectory(this.store), deliveries, PUBLIC_EVENTS, () => schedule[0] ?? 0);
    const settings = { timeoutMs: this.options.timeoutMs, allowPrivate: this.config.webhookAllowPrivateNetworks, retryScheduleMs: schedule };
    this.scheduler = new DeliveryScheduler(this.readStore, (id) => attemptDelivery(deliveries, this.box, id, settings), { intervalMs: this.options.pollIntervalMs });
    // Before joining: no event may be routed while an older webhook is missing from the index.
    await backfillWebhookIndex(this.store);
    this.consumer = new BusConsumer(this.bus, this.options.consumerGroup, (event) => router.route(event));
    await this.consumer.start();
    this.scheduler.start();
    // With the projector in this process, each of its batches may have made deliveries due.
    const scheduler = this.scheduler;
    if (this.roles.projector) this.offBatch = this.platform.projector.onBatch(() => scheduler.wake());
    logger.info({ group: this.options.consumerGroup, timeout_ms: this.options.timeoutMs, component: 'webhooks' }, 'webhook worker started');
  }

  async onModuleDestroy(): Promise<void> {
    this.offBatch();
    await this.consumer?.stop();
    await this.scheduler?.stop();
  }
}
