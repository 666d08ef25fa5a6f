import type { DomainError } from './domain-error';

/** A domain event before it is stored: a past-tense type and a plain-JSON payload. */
export interface DomainEvent<Type extends string = string, Data extends object = object> {
  readonly type: Type;
  readonly data: Data;
}

export type Decision<E> = readonly E[] | DomainError;

/** One aggregate's behaviour: pure, synchronous, no I/O. */
export interface Decider<Command, Event extends DomainEvent, State> {
  readonly initialState: State;
  decide(command: Command, state: State): Decision<Event>;
  evolve(state: State, event: Event): State;
}
