import type { AttemptLog, Delivery, DeliveryStore, QueuePlace } from '@app/platform/delivery-store/delivery-store.port';
import { modeOf } from '@app/platform/event-store/event-mode';
import type { EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import { logger } from '@app/platform/logging/logger';
import type { Clock } from '@app/platform/clock';
import { LEGACY_DELIVERY_EVENT_TYPES, type LegacyDeliveryEvent } from './legacy-delivery-events';

/** The delivery store's marker: set once every delivery event of the log up to `through` is in the store. */
export const LEGACY_IMPORT_MARKER = 'legacy-delivery-events';

const PAGE = 1000;

type Legacy<T extends LegacyDeliveryEvent['type']> = Extract<LegacyDeliveryEvent, { type: T }>;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface Folding {
  delivery: Mutable<Delivery>;
  inFlight: number | null;
}

export interface LegacyImportResult {
  readonly through: number;
  readonly deliveries: number;
  readonly attempts: number;
}

/**
 * Folds the delivery events an older log holds into the delivery store, once per store: every
 * attempt becomes its immutable log entry (and counts in its webhook's statistics), every delivery
 * the row it would be had the store existed, so pending retries go on where they stood (an attempt
 * in flight when the old worker stopped is made again once its lease ran out). The worker runs it
 * before it routes or attempts anything; a marker in the store records it ran. Every write is
 * insert-if-absent, so a run cut short, or two workers running it at once, store each thing once.
 */
export async function importLegacyDeliveries(
  events: EventStore,
  store: DeliveryStore,
  clock: Clock,
): Promise<LegacyImportResult | null> {
  if (await store.marker(LEGACY_IMPORT_MARKER)) return null;
  const head = await events.headPosition();
  const importer = new LegacyImporter(store);
  for (let after = 0; after < head;) {
    const page = await events.readAll({ after, limit: PAGE });
    if (!page.length) break;
    for (const event of page)
      if (event.position <= head && LEGACY_DELIVERY_EVENT_TYPES.has(event.type)) await importer.apply(event);
    await importer.flushFinished();
    after = page[page.length - 1].position;
  }
  const result = { through: head, ...(await importer.finish()) };
  await store.setMarker(LEGACY_IMPORT_MARKER, JSON.stringify({ ...result, at: clock.now() }));
  if (result.deliveries || result.attempts)
    logger.info({ ...result, component: 'webhooks' }, 'delivery events of the log imported into the delivery store');
  return result;
}

/** The old deciders' fold (delivery stream, queue place), writing what it finishes as it goes. */
class LegacyImporter {
  private readonly open = new Map<string, Folding>();
  private readonly places = new Map<string, QueuePlace>();
  private deliveries = 0;
  private attempts = 0;

  constructor(private readonly store: DeliveryStore) {}

  async apply(recorded: RecordedEvent): Promise<void> {
    const event = recorded as unknown as LegacyDeliveryEvent;
    switch (event.type) {
      case 'WebhookDeliveryEnqueued':
        this.places.set(event.data.delivery_id, {
          resource: event.data.resource,
          position: event.data.position,
          seq: event.data.seq,
        });
        return;
      case 'WebhookDeliveryScheduled':
        return this.scheduled(recorded, event.data);
      case 'WebhookDeliveryAttemptStarted': {
        const open = this.open.get(event.data.delivery_id);
        if (!open || open.delivery.status !== 'pending') return;
        open.inFlight = event.data.attempt;
        // Due again when the lease runs out: the attempt is made again unless its outcome follows.
        Object.assign(open.delivery, { attempts: event.data.attempt, due_at: event.data.lease_until });
        return;
      }
      case 'WebhookDeliveryAttempted':
        return this.attempted(recorded, event.data);
      case 'WebhookDeliveryCancelled': {
        const open = this.open.get(event.data.delivery_id);
        if (open?.delivery.status === 'pending')
          Object.assign(open.delivery, {
            status: 'cancelled',
            cancel_reason: event.data.reason,
            finished_at: event.data.cancelled,
            due_at: event.data.cancelled,
          });
        return;
      }
      default:
        // Dequeued: the store hands queues on by itself (a finished delivery never blocks one).
        return;
    }
  }

  private scheduled(recorded: RecordedEvent, d: Legacy<'WebhookDeliveryScheduled'>['data']): void {
    if (this.open.has(d.delivery_id)) return;
    // The place the router gave it (the domain event's position); else its scheduling's, which keeps the order.
    const place = this.places.get(d.delivery_id);
    this.places.delete(d.delivery_id);
    const queue = d.resource ? (place ?? { resource: d.resource, position: recorded.position, seq: 0 }) : null;
    const { delivery_id, webhook_id, entity_id, event_id, event, test, payload, scheduled, due_at } = d;
    const delivery: Mutable<Delivery> = {
      id: delivery_id,
      organization_id: recorded.metadata.organization_id,
      mode: modeOf(recorded.metadata),
      ...{ entity_id, webhook_id, event_id, event, test, payload, queue, scheduled, due_at },
      status: 'pending',
      attempts: 0,
      head: false,
      finished_at: null,
      cancel_reason: null,
    };
    this.open.set(delivery_id, { delivery, inFlight: null });
  }

  /** Logged whatever the delivery's state (a late attempt too); only the attempt in flight moves it. */
  private async attempted(recorded: RecordedEvent, d: Legacy<'WebhookDeliveryAttempted'>['data']): Promise<void> {
    const { log_id, next_attempt_at, ...entry } = d;
    const log: AttemptLog = {
      ...entry,
      id: log_id,
      organization_id: recorded.metadata.organization_id,
      mode: modeOf(recorded.metadata),
      created: d.completed_at,
    };
    if (await this.store.restoreAttempt(log)) this.attempts++;
    const open = this.open.get(d.delivery_id);
    if (!open || open.delivery.status !== 'pending') return;
    const finished = { finished_at: d.completed_at, due_at: d.completed_at };
    if (d.status === 'succeeded') Object.assign(open.delivery, { status: 'succeeded', ...finished });
    else if (d.attempt === open.inFlight) {
      if (next_attempt_at === null) Object.assign(open.delivery, { status: 'failed', ...finished });
      else {
        open.delivery.due_at = next_attempt_at;
        open.inFlight = null;
      }
    }
  }

  /** Finished deliveries are stored and forgotten page by page, so memory holds only what is still pending. */
  async flushFinished(): Promise<void> {
    for (const [id, { delivery }] of this.open) {
      if (delivery.status === 'pending') continue;
      if (await this.store.restore(delivery)) this.deliveries++;
      this.open.delete(id);
    }
  }

  /** Pending ones last, in queue order, so each queue's first pending delivery becomes its head. */
  async finish(): Promise<{ deliveries: number; attempts: number }> {
    await this.flushFinished();
    const place = (d: Delivery) => [d.queue?.position ?? 0, d.queue?.seq ?? 0];
    const pending = [...this.open.values()]
      .map((o) => o.delivery)
      .sort((a, b) => place(a)[0] - place(b)[0] || place(a)[1] - place(b)[1]);
    for (const delivery of pending) if (await this.store.restore(delivery)) this.deliveries++;
    return { deliveries: this.deliveries, attempts: this.attempts };
  }
}
