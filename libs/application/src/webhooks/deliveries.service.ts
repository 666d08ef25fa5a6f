import { deliveryDecider, deliveryQueueDecider, webhookDecider, type DeliveryAttemptRecord, type DeliveryCommand, type DeliveryState, type QueuePlace, type WebhookState } from '@app/domain';
import { modeOf } from '@app/platform/event-store/event-mode';
import { WrongExpectedRevisionError, type EventStore } from '@app/platform/event-store/event-store.port';
import { foldStream, handleCommand, systemActor, type CommandContext } from '../command-handling';
import { deliveryQueueStream, deliveryStream, webhookStream } from './streams';

type Scheduled = Extract<DeliveryCommand, { type: 'ScheduleDelivery' }>['delivery'];
type QueueRef = { readonly webhook_id: string; readonly resource: string; readonly delivery_id: string };

/** What the delivery worker asks of the log; every command is idempotent in the decider. */
export class Deliveries {
  constructor(private readonly store: EventStore) {}

  /**
   * The worker acts in the world of the webhook (a webhook receives only its own mode's events, so
   * its queues and deliveries share its mode); read from the webhook's or delivery's stream, cached.
   */
  private async context(organizationId: string, causationId: string, modeStream: { webhookId: string } | { deliveryId: string }): Promise<CommandContext> {
    const owner =
      'webhookId' in modeStream
        ? (await foldStream(this.store, webhookStream(modeStream.webhookId), webhookDecider)).owner
        : (await foldStream(this.store, deliveryStream(modeStream.deliveryId), deliveryDecider)).owner;
    return { actor: systemActor(organizationId, 'webhooks', modeOf(owner)), correlationId: causationId, causationId };
  }

  /**
   * Puts the delivery in its webhook+resource queue; true when it is queued (now or by an earlier
   * try of the same bus message). False only for a place behind the queue's last one: a repeat of
   * a delivery already dequeued, whose scheduling is then a no-op too.
   */
  async enqueue(organizationId: string, causationId: string, ref: QueueRef, place: QueuePlace, entityId: string): Promise<boolean> {
    const command = { type: 'EnqueueDelivery' as const, ...ref, ...place };
    const queue = deliveryQueueStream(ref.webhook_id, ref.resource);
    const { state } = await handleCommand(this.store, queue, deliveryQueueDecider, command, await this.context(organizationId, causationId, { webhookId: ref.webhook_id }), { entityId });
    return state.pending.includes(ref.delivery_id);
  }

  /** Takes a finished delivery out of its queue; returns the delivery that is now the head, if any. */
  async dequeue(organizationId: string, ref: QueueRef): Promise<string | null> {
    const queue = deliveryQueueStream(ref.webhook_id, ref.resource);
    const { newEvents } = await handleCommand(this.store, queue, deliveryQueueDecider, { type: 'DequeueDelivery', ...ref }, await this.context(organizationId, ref.delivery_id, { webhookId: ref.webhook_id }));
    const dequeued = newEvents[0];
    return dequeued?.type === 'WebhookDeliveryDequeued' ? dequeued.data.next_head : null;
  }

  /** Scheduling the same delivery again (a redelivered bus message) records nothing. */
  async schedule(organizationId: string, causationId: string, delivery: Scheduled, firstDelayMs: number): Promise<void> {
    const command: DeliveryCommand = { type: 'ScheduleDelivery', delivery, first_delay_ms: firstDelayMs, now: Date.now() };
    await handleCommand(this.store, deliveryStream(delivery.delivery_id), deliveryDecider, command, await this.context(organizationId, causationId, { webhookId: delivery.webhook_id }), {
      entityId: delivery.entity_id,
    });
  }

  /** Read without a tenant: the worker acts for every organization. */
  async load(deliveryId: string): Promise<{ state: DeliveryState; organizationId: string } | null> {
    const folded = await foldStream(this.store, deliveryStream(deliveryId), deliveryDecider);
    return folded.owner ? { state: folded.state, organizationId: folded.owner.organization_id } : null;
  }

  async webhook(webhookId: string): Promise<WebhookState> {
    return (await foldStream(this.store, webhookStream(webhookId), webhookDecider)).state;
  }

  /** Claims the next attempt; null when another worker holds it or it is no longer due. */
  async start(organizationId: string, deliveryId: string, leaseMs: number): Promise<number | null> {
    try {
      const { newEvents } = await handleCommand(
        this.store,
        deliveryStream(deliveryId),
        deliveryDecider,
        { type: 'StartDeliveryAttempt', delivery_id: deliveryId, lease_ms: leaseMs, now: Date.now() },
        await this.context(organizationId, deliveryId, { deliveryId }),
        { maxAttempts: 1 },
      );
      const started = newEvents[0];
      return started?.type === 'WebhookDeliveryAttemptStarted' ? started.data.attempt : null;
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) return null;
      throw error;
    }
  }

  /** Returns the delivery as it stands after the attempt is recorded. */
  async record(organizationId: string, deliveryId: string, outcome: DeliveryAttemptRecord, retryScheduleMs: readonly number[]): Promise<DeliveryState> {
    const command: DeliveryCommand = { type: 'RecordDeliveryAttempt', delivery_id: deliveryId, outcome, retry_schedule_ms: retryScheduleMs };
    return (await handleCommand(this.store, deliveryStream(deliveryId), deliveryDecider, command, await this.context(organizationId, deliveryId, { deliveryId }))).state;
  }

  async cancel(organizationId: string, deliveryId: string, reason: Extract<DeliveryCommand, { type: 'CancelDelivery' }>['reason']): Promise<void> {
    const command: DeliveryCommand = { type: 'CancelDelivery', delivery_id: deliveryId, reason, now: Date.now() };
    await handleCommand(this.store, deliveryStream(deliveryId), deliveryDecider, command, await this.context(organizationId, deliveryId, { deliveryId }));
  }
}
