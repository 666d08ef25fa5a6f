import type { RecordedEvent } from '@app/platform/event-store/event-store.port';

/** The event's stream folded with a decider up to and including the event (never from the start each time). */
export type StateAt = <S>(decider: {
  readonly evolve: (state: S, event: never) => S;
  readonly initialState: S;
}) => Promise<S>;

/**
 * How one domain event becomes public events: the names it fires, in order, and for each the
 * resource as the API shows it at that event. `stateAt` folds the resource, for rules that need it.
 */
export interface PublicEventRule {
  readonly events: readonly string[];
  data(event: string, recorded: RecordedEvent, stateAt: StateAt): Promise<Record<string, unknown>>;
  /** Webhooks that never receive it, whatever they subscribe to (a disabled webhook is not told of itself). */
  excludes?(recorded: RecordedEvent): readonly string[];
}

export type PublicEventTable = Readonly<Record<string, PublicEventRule>>;
