import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { MESSAGE_BUS, type MessageBus } from '@app/platform/bus/message-bus.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { DELIVERY_STORE, type DeliveryStore } from '@app/platform/delivery-store/delivery-store.port';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { sharedTailOf } from '@app/platform/log-reader/shared-tail';
import { PLATFORM_ROLES, type PlatformRoles } from '@app/platform/platform.module';
import { logger } from '@app/platform/logging/logger';
import { SECRET_BOX, type SecretBox } from '@app/platform/security/secret-box';
import { BusConsumer } from './consumer/bus-consumer';
import { EventRouter } from './consumer/event-router';
import { backfillWebhookIndex } from './consumer/index-backfill';
import { WebhookDirectory } from './consumer/webhook-directory';
import { attemptDelivery } from './delivery/attempt';
import { DeliveryScheduler } from './delivery/scheduler';
import { importLegacyDeliveries } from './legacy/legacy-import';
import { PUBLIC_EVENTS } from './mapping/public-events';
import { webhookPublicEvents } from './mapping/webhooks.public-events';
import { WORKER_OPTIONS, type WorkerOptions } from './worker-options';

/**
 * The delivery worker: a consumer-group member that routes events to webhooks from the log into
 * the delivery store, and the scheduler that makes the deliveries from it. It appends nothing to
 * the log for a delivery (docs/decisions/webhooks.md, "Delivery store").
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private consumer: BusConsumer | null = null;
  private scheduler: DeliveryScheduler | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DELIVERY_STORE) private readonly deliveries: DeliveryStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(WORKER_OPTIONS) private readonly options: WorkerOptions,
    @Inject(PLATFORM_ROLES) private readonly roles: PlatformRoles,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Only a worker with the webhooks role imports this module (apps/worker); a process that says it runs none does not deliver.
    if (this.roles.webhooks === false) return;
    const schedule = this.config.webhookRetryScheduleMs;
    const table = { ...PUBLIC_EVENTS, ...webhookPublicEvents(this.deliveries) };
    const router = new EventRouter(
      this.store,
      new WebhookDirectory(this.store, sharedTailOf(this.store)),
      this.deliveries,
      table,
      () => schedule[0] ?? 0,
      this.clock,
    );
    const { timeoutMs, leaseMarginMs, disableAfterMs } = this.options;
    const settings = {
      timeoutMs,
      leaseMarginMs,
      disableAfterMs,
      allowPrivate: this.config.webhookAllowPrivateNetworks,
      retryScheduleMs: schedule,
    };
    const deps = { deliveries: this.deliveries, events: this.store, box: this.box, clock: this.clock };
    const scheduler = new DeliveryScheduler(
      this.deliveries,
      (id, answered) => attemptDelivery(deps, id, settings, answered),
      { intervalMs: this.options.pollIntervalMs, clock: this.clock },
    );
    this.scheduler = scheduler;
    // Before anything is routed or attempted: deliveries an older log recorded, then webhooks older than the index.
    await importLegacyDeliveries(this.store, this.deliveries, this.clock);
    await backfillWebhookIndex(this.store);
    // Woken once the batch's deliveries are committed, and again once they are on disk (a store
    // whose write is not committed at the call, such as MongoDB's, is looked at then).
    const wake = () => scheduler.wake();
    this.consumer = new BusConsumer(this.bus, this.options.consumerGroup, async (events) => {
      if (await router.route(events, wake)) wake();
    });
    await this.consumer.start();
    scheduler.start();
    logger.info(
      { group: this.options.consumerGroup, timeout_ms: this.options.timeoutMs, component: 'webhooks' },
      'webhook worker started',
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.consumer?.stop();
    await this.scheduler?.stop();
  }
}
