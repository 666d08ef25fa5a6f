import {
  evolveWebhook,
  initialWebhookState,
  isExistingWebhook,
  subscribesTo,
  webhookStatusAt,
  type ExistingWebhook,
  type WebhookEvent,
  type WebhookState,
} from '@app/domain';
import { modeOf, type Mode } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';

/**
 * One webhook stream as a list of states, each from the global log position that produced it:
 * the webhook as it was at any position, without folding the stream again. Tests and other events
 * that change nothing add no state, so the list stays as short as the webhook's real history.
 */
export class WebhookTimeline {
  private readonly states: { readonly position: number; readonly state: WebhookState }[] = [];
  /** Revision of the last event folded (-1: none yet). */
  revision = -1;
  organizationId: string | null = null;
  mode: Mode | null = null;
  /** Every event of the stream with a position below this one has been folded. */
  coveredBefore = 0;

  /** Folds events read on from `revision + 1`; events already folded are skipped. */
  extend(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (event.revision <= this.revision) continue;
      this.organizationId ??= event.metadata.organization_id;
      this.mode ??= modeOf(event.metadata, event.data);
      const current = this.latest();
      const next = evolveWebhook(current, event as unknown as WebhookEvent);
      if (next !== current) this.states.push({ position: event.position, state: next });
      this.revision = event.revision;
    }
  }

  /** The webhook as of the log just before `position`: only events strictly before it count. */
  before(position: number): WebhookState {
    for (let i = this.states.length - 1; i >= 0; i--)
      if (this.states[i].position < position) return this.states[i].state;
    return initialWebhookState;
  }

  private latest(): WebhookState {
    return this.states.length ? this.states[this.states.length - 1].state : initialWebhookState;
  }
}

/** What the router knows of a domain event when it picks targets. */
export interface RoutedEvent {
  readonly position: number;
  readonly organizationId: string;
  /** A webhook receives only events of its own mode (decisions §1). */
  readonly mode: Mode;
  /** When it happened: expiry is judged at this time, as the webhook read then. */
  readonly occurredAt: number;
}

/**
 * The webhooks that receive `name` fired by an event: created before the event's position and
 * not deleted before it, of the event's organization and mode, active and unexpired at its time, and
 * subscribed to the name, all as they were then (decisions §9).
 */
export function targetsAt(timelines: readonly WebhookTimeline[], event: RoutedEvent, name: string): ExistingWebhook[] {
  return timelines
    .filter((t) => t.organizationId === event.organizationId && t.mode === event.mode)
    .map((t) => t.before(event.position))
    .filter(isExistingWebhook)
    .filter((w) => webhookStatusAt(w, event.occurredAt) === 'active' && subscribesTo(w.enabled_events, name));
}
