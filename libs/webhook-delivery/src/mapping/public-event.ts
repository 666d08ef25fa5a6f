import type { RecordedEvent } from '@app/platform/event-store/event-store.port';

/**
 * How one domain event becomes public events: the names it fires, in order, and for each the
 * resource as the API shows it at that event. `history` is the event's stream up to and including
 * it, for rules that fold the resource.
 */
export interface PublicEventRule {
  readonly events: readonly string[];
  data(event: string, recorded: RecordedEvent, history: () => Promise<RecordedEvent[]>): Promise<Record<string, unknown>>;
}

export type PublicEventTable = Readonly<Record<string, PublicEventRule>>;

/** Folds `history` with a decider's evolve. */
export const foldWith =
  <S>(evolve: (state: S, event: never) => S, initial: S) =>
  (events: RecordedEvent[]): S =>
    events.reduce((state, e) => evolve(state, e as never), initial);
