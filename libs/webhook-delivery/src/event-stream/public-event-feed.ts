import { foldStream } from '@app/application/command-handling';
import { FoldCache } from '@app/platform/folds/fold-cache';
import { derivedUlid } from '@app/application/webhooks';
import { modeOf, type Mode } from '@app/platform/event-store/event-mode';
import { atPointInTime } from '@app/platform/event-store/point-in-time';
import type { EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { PublicEventTable, StateAt } from '../mapping/public-event';

/** The webhook delivery body of decisions §9, exactly as a webhook receives it. */
export interface DeliveryBody {
  readonly id: string;
  readonly event: string;
  readonly created: number;
  readonly entity_id: string;
  readonly data: Record<string, unknown>;
}

/** The world a feed is for: one organization, one mode (decisions §1). */
export interface FeedScope {
  readonly organizationId: string;
  readonly mode: Mode;
}

type Foldable = Parameters<StateAt>[0];
interface Folded {
  readonly state: unknown;
  readonly revision: number;
}

/**
 * What one stream keeps of the resources it has handed on: their states at their last event, least
 * recently used out first. The folds the mapping asks for are small (an account's without its open
 * holds, accounts.public-events.ts), so this keeps thousands of resources; an evicted one costs a
 * bounded fold (from a snapshot) on its next event.
 */
const SESSION_MAX_BYTES = 4 * 1024 * 1024;

/**
 * What a webhook subscribed to every event (`{"all": true}`) on every entity of one organization
 * and mode would be sent for one domain event of the log: its public events, in order, each with
 * the id, name and data the webhook router gives it (libs/webhook-delivery/src/consumer), so a
 * receiver sees the same body, and the same `evt_…` id, from `listen` as from a real delivery.
 * Test deliveries (`POST /webhook-tests`) are addressed to one webhook, not to the organization,
 * so they are not part of it.
 *
 * One feed per open stream. A stream reads the log in order, so a resource's events reach it in
 * revision order: the state at an event is the state at the resource's previous event (which the
 * feed kept) evolved by this one, one `evolve` and no read. Only a resource's first event in the
 * stream past its revision 0 is folded, as an `as_of` read at the event's position (fold-as-of.ts:
 * from the stream's snapshot when it is not past the event, never reading past the event): once
 * per resource per stream, never per event.
 */
export class PublicEventFeed {
  private readonly states: FoldCache<Folded>;
  private readonly evolveIds = new Map<object, number>();

  constructor(
    private readonly store: EventStore,
    private readonly table: PublicEventTable,
    maxBytes = SESSION_MAX_BYTES,
  ) {
    this.states = new FoldCache<Folded>(maxBytes);
  }

  /** True when the event is in the scope's world and fires public events: cheap, no read. */
  concerns(recorded: RecordedEvent, scope: FeedScope): boolean {
    return (
      recorded.metadata.organization_id === scope.organizationId &&
      modeOf(recorded.metadata) === scope.mode &&
      Boolean(recorded.metadata.entity_id) &&
      Object.prototype.hasOwnProperty.call(this.table, recorded.type)
    );
  }

  /** The delivery bodies the event fires, in the order a webhook receives them; none outside the scope. */
  async bodiesOf(recorded: RecordedEvent, scope: FeedScope): Promise<DeliveryBody[]> {
    if (!this.concerns(recorded, scope)) return [];
    const rule = this.table[recorded.type];
    const stateAt = ((decider: Foldable) => this.stateAt(recorded, decider)) as StateAt;
    const bodies: DeliveryBody[] = [];
    for (const name of rule.events) {
      bodies.push({
        id: publicEventId(recorded, name),
        event: name,
        created: recorded.metadata.occurred_at,
        entity_id: recorded.metadata.entity_id!,
        data: await rule.data(name, recorded, stateAt),
      });
    }
    return bodies;
  }

  private async stateAt(recorded: RecordedEvent, decider: Foldable): Promise<unknown> {
    let id = this.evolveIds.get(decider.evolve);
    if (id === undefined) this.evolveIds.set(decider.evolve, (id = this.evolveIds.size));
    const key = `${id}:${recorded.streamId}`;
    const known = this.states.get(key);
    if (known?.revision === recorded.revision) return known.state;
    const evolve = decider.evolve as (state: unknown, event: RecordedEvent) => unknown;
    const state =
      known?.revision === recorded.revision - 1
        ? evolve(known.state, recorded)
        : recorded.revision === 0
          ? evolve(decider.initialState, recorded)
          : (
              await atPointInTime({ position: recorded.position }, () =>
                foldStream(this.store, recorded.streamId, decider),
              )
            ).state;
    this.states.remember(key, { state, revision: recorded.revision });
    return state;
  }
}

/** The public event id the router derives from the domain event and the name it fires (one id per pair, on every retry). */
export const publicEventId = (recorded: RecordedEvent, name: string): string => `evt_${derivedUlid(recorded.id, name)}`;
