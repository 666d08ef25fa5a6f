import type { WebhookEvent } from '@app/domain';
import { derivedUlid, indexWebhook } from '@app/application/webhooks';
import { foldStreamAt, reactionContext } from '@app/application/command-handling';
import type { Clock } from '@app/platform/clock';
import type { DeliveryStore, NewDelivery } from '@app/platform/delivery-store/delivery-store.port';
import { modeOf } from '@app/platform/event-store/event-mode';
import type { EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import { traceIdOf } from '@app/platform/logging/trace-context';
import type { PublicEventTable, StateAt } from '../mapping/public-event';
import type { WebhookDirectory } from './webhook-directory';
import { targetsAt } from './webhook-timeline';

interface PublicEvent {
  readonly id: string;
  readonly event: string;
  readonly created: number;
  readonly entity_id: string;
  readonly test?: true;
  readonly data: Record<string, unknown>;
}

/**
 * Turns domain events from the bus into scheduled deliveries in the delivery store: their public
 * events, each to the webhooks that were subscribed at the event's position in the log (never the
 * read models, which trail it). Ids are derived from the domain event id, so a redelivered message
 * schedules nothing new. Nothing is appended to the log for a delivery.
 */
export class EventRouter {
  constructor(
    private readonly store: EventStore,
    private readonly directory: WebhookDirectory,
    private readonly deliveries: DeliveryStore,
    private readonly table: PublicEventTable,
    private readonly firstDelayMs: () => number,
    private readonly clock: Clock,
  ) {}

  /**
   * Routes a bus batch in order with one write of the delivery store for all its deliveries (one
   * fsync on SQLite, shared with the attempts' records). A webhook's update or deletion acts on
   * the store itself, so what was planned before it is written first. `written` is called as soon
   * as a write is committed, before it is on disk: the scheduler may attempt those deliveries at
   * once (a power cut that takes the write back also takes back the batch's commit on the bus,
   * which is then routed and attempted again: at-least-once). Resolves to the number of
   * deliveries scheduled (none for a repeat) or resumed.
   */
  async route(events: readonly RecordedEvent[], written: () => void = () => undefined): Promise<number> {
    let planned: NewDelivery[] = [];
    let count = 0;
    const write = async () => {
      if (!planned.length) return;
      const scheduling = this.deliveries.scheduleMany(planned);
      planned = [];
      written();
      count += await scheduling;
    };
    for (const recorded of events) {
      if (recorded.type === 'WebhookCreated') await this.index(recorded);
      else if (recorded.type === 'WebhookUpdated' || recorded.type === 'WebhookDeleted') {
        await write();
        count += await this.resume(recorded);
      } else planned.push(...(await this.deliveriesOf(recorded)));
    }
    await write();
    return count;
  }

  /** What one event schedules: read from the log alone, written by `route`. */
  private async deliveriesOf(recorded: RecordedEvent): Promise<NewDelivery[]> {
    if (recorded.type === 'WebhookTestRequested') return [this.testDelivery(recorded)];
    const rule = this.table[recorded.type];
    const entityId = recorded.metadata.entity_id;
    if (!rule || !entityId) return [];
    const timelines = await this.directory.timelinesOf(entityId, recorded.position);
    if (!timelines.length) return [];
    const planned: NewDelivery[] = [];
    const at = {
      position: recorded.position,
      organizationId: recorded.metadata.organization_id,
      mode: modeOf(recorded.metadata),
      occurredAt: recorded.metadata.occurred_at,
    };
    const stateAt: StateAt = async (decider) =>
      (await foldStreamAt(this.store, recorded.streamId, decider, recorded.revision)).state;
    const excluded = rule.excludes?.(recorded) ?? [];
    for (const [seq, name] of rule.events.entries()) {
      const targets = targetsAt(timelines, at, name).filter((w) => !excluded.includes(w.id));
      if (!targets.length) continue;
      const id = `evt_${derivedUlid(recorded.id, name)}`;
      const event: PublicEvent = {
        id,
        event: name,
        created: recorded.metadata.occurred_at,
        entity_id: entityId,
        data: await rule.data(name, recorded, stateAt),
      };
      for (const webhook of targets) planned.push(this.delivery(recorded, webhook.id, event, seq));
    }
    return planned;
  }

  /** A test goes to the one webhook it names, whatever that webhook subscribes to, and waits on nothing. */
  private testDelivery(recorded: RecordedEvent): NewDelivery {
    const d = (recorded as unknown as Extract<WebhookEvent, { type: 'WebhookTestRequested' }>).data;
    return this.delivery(
      recorded,
      d.webhook_id,
      { id: d.event_id, event: d.event, created: d.requested, entity_id: d.entity_id, test: true, data: d.data },
      null,
    );
  }

  /**
   * A creation is indexed before it is written, except by code older than the index: repeating it
   * here (a no-op otherwise) lists those webhooks too, as the startup backfill did for older ones.
   */
  private async index(recorded: RecordedEvent): Promise<void> {
    const d = (recorded as unknown as Extract<WebhookEvent, { type: 'WebhookCreated' }>).data;
    await indexWebhook(this.store, reactionContext(recorded, 'webhooks'), d.webhook_id, d.entity_id);
  }

  /**
   * Decisions §15: a webhook set active again (or given a new expiry) resumes its paused deliveries;
   * one still inactive pauses them again at their next look, and a deleted one's are cancelled
   * then (not left pending for ever). Any update resumes: it costs one indexed update of the
   * webhook's pending deliveries.
   */
  private resume(recorded: RecordedEvent): Promise<number> {
    const d = (recorded as unknown as Extract<WebhookEvent, { type: 'WebhookUpdated' | 'WebhookDeleted' }>).data;
    return this.deliveries.resume(d.webhook_id, this.clock.now());
  }

  /**
   * Queued behind the resource's earlier deliveries to this webhook (tests wait on nothing). The
   * webhook receives only its own mode's events, so the event's world is the delivery's.
   */
  private delivery(recorded: RecordedEvent, webhookId: string, event: PublicEvent, seq: number | null): NewDelivery {
    const now = this.clock.now();
    return {
      id: `whd_${derivedUlid(event.id, webhookId)}`,
      organization_id: recorded.metadata.organization_id,
      mode: modeOf(recorded.metadata),
      entity_id: event.entity_id,
      webhook_id: webhookId,
      event_id: event.id,
      event: event.event,
      test: event.test === true,
      payload: JSON.stringify(event),
      queue: seq === null ? null : { resource: recorded.streamId, position: recorded.position, seq },
      // The trace of the request behind the event: each attempt sends it as `traceparent`.
      trace_id: traceIdOf(recorded.metadata.correlation_id),
      scheduled: now,
      due_at: now + this.firstDelayMs(),
    };
  }
}
