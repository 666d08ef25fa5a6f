import { subscribesTo, webhookStatusAt, type WebhookEvent } from '@app/domain';
import { derivedUlid, type Deliveries } from '@app/application/webhooks';
import type { EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { ReadStore } from '@app/platform/read-store/read-store.port';
import type { WebhookDocument } from '@app/read-models/webhooks/webhook.projection';
import type { PublicEventTable } from '../mapping/public-event';

interface PublicEvent {
  readonly id: string;
  readonly event: string;
  readonly created: number;
  readonly entity_id: string;
  readonly test?: true;
  readonly data: Record<string, unknown>;
}

/**
 * Turns one domain event from the bus into scheduled deliveries: its public events, each to every
 * active, unexpired webhook of the entity that subscribes to it. Ids are derived from the domain
 * event id, so a redelivered message schedules nothing new.
 */
export class EventRouter {
  constructor(
    private readonly store: EventStore,
    private readonly readStore: ReadStore,
    private readonly deliveries: Deliveries,
    private readonly table: PublicEventTable,
    private readonly firstDelayMs: () => number,
  ) {}

  async route(recorded: RecordedEvent): Promise<void> {
    if (recorded.type === 'WebhookTestRequested') return this.routeTest(recorded);
    const rule = this.table[recorded.type];
    const entityId = recorded.metadata.entity_id;
    if (!rule || !entityId) return;
    const webhooks = await this.subscribers(recorded.metadata.organization_id, entityId);
    let history: Promise<RecordedEvent[]> | null = null;
    const load = () => (history ??= this.store.readStream(recorded.streamId).then((events) => events.filter((e) => e.revision <= recorded.revision)));
    for (const name of rule.events) {
      const targets = webhooks.filter((w) => subscribesTo(w.enabled_events, name));
      if (!targets.length) continue;
      const event: PublicEvent = { id: `evt_${derivedUlid(recorded.id, name)}`, event: name, created: recorded.metadata.occurred_at, entity_id: entityId, data: await rule.data(name, recorded, load) };
      for (const webhook of targets) await this.schedule(recorded, webhook.id, event);
    }
  }

  /** A test goes to the one webhook it names, whatever that webhook subscribes to. */
  private async routeTest(recorded: RecordedEvent): Promise<void> {
    const d = (recorded as unknown as Extract<WebhookEvent, { type: 'WebhookTestRequested' }>).data;
    await this.schedule(recorded, d.webhook_id, { id: d.event_id, event: d.event, created: d.requested, entity_id: d.entity_id, test: true, data: d.data });
  }

  private schedule(recorded: RecordedEvent, webhookId: string, event: PublicEvent): Promise<void> {
    const delivery = {
      delivery_id: `whd_${derivedUlid(event.id, webhookId)}`,
      webhook_id: webhookId,
      entity_id: event.entity_id,
      event_id: event.id,
      event: event.event,
      test: event.test === true,
      payload: JSON.stringify(event),
    };
    return this.deliveries.schedule(recorded.metadata.organization_id, recorded.id, delivery, this.firstDelayMs());
  }

  /** Active, unexpired webhooks of the entity, from the list model (every page). */
  private async subscribers(organizationId: string, entityId: string): Promise<WebhookDocument[]> {
    const found: WebhookDocument[] = [];
    const now = Date.now();
    for (let before: string | undefined; ; ) {
      const page = await this.readStore.find<WebhookDocument>('webhooks', { filter: { organization_id: organizationId, entity_id: entityId }, limit: 100, before });
      found.push(...page.items.filter((w) => webhookStatusAt(w, now) === 'active'));
      if (!page.hasMore || !page.items.length) return found;
      before = page.items[page.items.length - 1].id;
    }
  }
}
