import { deliveryDecider, webhookDecider, type DeliveryAttemptRecord, type DeliveryCommand, type DeliveryState, type WebhookState } from '@app/domain';
import { WrongExpectedRevisionError, type EventStore } from '@app/platform/event-store/event-store.port';
import { handleCommand, systemActor, type CommandContext } from '../command-handling';
import { deliveryStream, webhookStream } from './streams';

type Scheduled = Extract<DeliveryCommand, { type: 'ScheduleDelivery' }>['delivery'];

/** What the delivery worker asks of the log; every command is idempotent in the decider. */
export class Deliveries {
  constructor(private readonly store: EventStore) {}

  private context(organizationId: string, causationId: string): CommandContext {
    return { actor: systemActor(organizationId, 'webhooks'), correlationId: causationId, causationId };
  }

  /** Scheduling the same delivery again (a redelivered bus message) records nothing. */
  async schedule(organizationId: string, causationId: string, delivery: Scheduled, firstDelayMs: number): Promise<void> {
    const command: DeliveryCommand = { type: 'ScheduleDelivery', delivery, first_delay_ms: firstDelayMs, now: Date.now() };
    await handleCommand(this.store, deliveryStream(delivery.delivery_id), deliveryDecider, command, this.context(organizationId, causationId), {
      entityId: delivery.entity_id,
    });
  }

  /** Read without a tenant: the worker acts for every organization. */
  async load(deliveryId: string): Promise<{ state: DeliveryState; organizationId: string } | null> {
    const events = await this.store.readStream(deliveryStream(deliveryId));
    if (!events.length) return null;
    const state = events.reduce((s, e) => deliveryDecider.evolve(s, e as never), deliveryDecider.initialState);
    return { state, organizationId: events[0].metadata.organization_id };
  }

  async webhook(webhookId: string): Promise<WebhookState> {
    const events = await this.store.readStream(webhookStream(webhookId));
    return events.reduce((s, e) => webhookDecider.evolve(s, e as never), webhookDecider.initialState);
  }

  /** Claims the next attempt; null when another worker holds it or it is no longer due. */
  async start(organizationId: string, deliveryId: string, leaseMs: number): Promise<number | null> {
    try {
      const { newEvents } = await handleCommand(
        this.store,
        deliveryStream(deliveryId),
        deliveryDecider,
        { type: 'StartDeliveryAttempt', delivery_id: deliveryId, lease_ms: leaseMs, now: Date.now() },
        this.context(organizationId, deliveryId),
        { maxAttempts: 1 },
      );
      const started = newEvents[0];
      return started?.type === 'WebhookDeliveryAttemptStarted' ? started.data.attempt : null;
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) return null;
      throw error;
    }
  }

  async record(organizationId: string, deliveryId: string, outcome: DeliveryAttemptRecord, retryScheduleMs: readonly number[]): Promise<void> {
    const command: DeliveryCommand = { type: 'RecordDeliveryAttempt', delivery_id: deliveryId, outcome, retry_schedule_ms: retryScheduleMs };
    await handleCommand(this.store, deliveryStream(deliveryId), deliveryDecider, command, this.context(organizationId, deliveryId));
  }

  async cancel(organizationId: string, deliveryId: string, reason: Extract<DeliveryCommand, { type: 'CancelDelivery' }>['reason']): Promise<void> {
    const command: DeliveryCommand = { type: 'CancelDelivery', delivery_id: deliveryId, reason, now: Date.now() };
    await handleCommand(this.store, deliveryStream(deliveryId), deliveryDecider, command, this.context(organizationId, deliveryId));
  }
}
