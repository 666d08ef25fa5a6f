import { systemClock, type Clock } from '@app/platform/clock';
import { ulid } from '@app/platform/ids/ulid';
import { isDomainError, type Decider, type DomainEvent } from '@app/domain';
import {
  WrongExpectedRevisionError,
  type EventStore,
  type EventToAppend,
} from '@app/platform/event-store/event-store.port';
import { modeOf, type Mode } from '@app/platform/event-store/event-mode';
import { retry } from '@app/platform/retry/retry';
import { actorLabel, type Actor, type CommandContext } from './actor';
import { DomainException } from './domain-exception';
import { foldStream, rememberFold, serializePerStream, type FoldedStream } from './stream-cache';
import { forbidden, visibility } from './tenancy';

/** The process's clock, as the store's folds carry it (the one that stamps appended events): for the time a command says. */
export const clockOf = (store: EventStore): Clock => store.folds?.clock ?? systemClock;

export interface HandleOptions {
  /** Owning entity recorded in metadata when the stream is new; existing streams keep theirs. */
  readonly entityId?: string | null;
  /**
   * Mode recorded when the stream is new, for a stream whose world is not the actor's (a live key
   * creating a sandbox key); default the actor's. Existing streams keep theirs.
   */
  readonly mode?: Mode;
  readonly maxAttempts?: number;
  readonly schemaVersion?: number;
}

export interface HandleResult<E, S> {
  readonly state: S;
  readonly newEvents: readonly E[];
  readonly position: number | null;
}

/**
 * Load the stream, fold, decide, append with the revision read; on a conflict (another process
 * wrote first), read on and decide again. Commands on one stream queue within this process, and
 * folds are cached, so a hot stream costs one short read per command, not a full replay.
 * A command given as a function is built from each attempt's fold and may read other streams: what
 * it reads is read after the fold, and the append still carries the fold's revision.
 * A domain error is thrown as a DomainException for the HTTP layer to render.
 */
export function handleCommand<C, E extends DomainEvent, S>(
  store: EventStore,
  streamId: string,
  decider: Decider<C, E, S>,
  command: C | ((state: S) => C | Promise<C>),
  context: CommandContext,
  options: HandleOptions = {},
): Promise<HandleResult<E, S>> {
  return serializePerStream(store, streamId, () =>
    decideAndAppend(store, streamId, decider, command, context, options),
  );
}

async function decideAndAppend<C, E extends DomainEvent, S>(
  store: EventStore,
  streamId: string,
  decider: Decider<C, E, S>,
  command: C | ((state: S) => C | Promise<C>),
  context: CommandContext,
  options: HandleOptions,
): Promise<HandleResult<E, S>> {
  const attempt = async (): Promise<HandleResult<E, S>> => {
    const folded = visibleFold(await foldStream(store, streamId, decider), decider.initialState, context.actor);
    const decided = decider.decide(
      typeof command === 'function' ? await (command as (s: S) => C | Promise<C>)(folded.state) : command,
      folded.state,
    );
    if (isDomainError(decided)) throw new DomainException(decided);
    if (decided.length === 0) return { state: folded.state, newEvents: [], position: null };
    const entityId = folded.owner ? (folded.owner.entity_id ?? null) : (options.entityId ?? null);
    const mode = folded.owner ? modeOf(folded.owner) : (options.mode ?? context.actor.mode);
    const at = clockOf(store).now();
    const toStore = decided.map((e) => toAppend(e, context, entityId, options.schemaVersion ?? 1, mode, at));
    const result = await store.append(streamId, toStore, folded.revision === -1 ? 'no_stream' : folded.revision);
    const state = decided.reduce(decider.evolve, folded.state);
    rememberFold(
      store,
      streamId,
      decider.evolve,
      { state, revision: result.nextExpectedRevision, owner: folded.owner ?? toStore[0].metadata },
      folded.revision,
    );
    return { state, newEvents: decided, position: result.position };
  };
  // A conflict: another writer appended since the fold; fold again (from the cache, then the new events) and decide again.
  return retry(attempt, {
    attempts: options.maxAttempts ?? 10,
    retryOn: (error) => error instanceof WrongExpectedRevisionError,
  });
}

/** The event with its metadata; `mode` defaults to the actor's world, `occurredAt` to now on the machine's clock. */
export function toAppend(
  event: DomainEvent,
  context: CommandContext,
  entityId: string | null,
  schemaVersion = 1,
  mode: Mode = context.actor.mode,
  occurredAt = systemClock.now(),
): EventToAppend {
  return {
    type: event.type,
    data: event.data as Record<string, unknown>,
    metadata: {
      event_id: ulid(),
      organization_id: context.actor.organizationId,
      entity_id: entityId,
      correlation_id: context.correlationId,
      causation_id: context.causationId,
      schema_version: schemaVersion,
      occurred_at: occurredAt,
      actor: actorLabel(context.actor),
      mode,
    },
  };
}

/** Folds a stream for a read (read-your-writes), enforcing tenancy; null when absent or not visible. */
export async function loadAggregate<E extends DomainEvent, S>(
  store: EventStore,
  streamId: string,
  decider: Pick<Decider<unknown, E, S>, 'evolve' | 'initialState'>,
  context: Pick<CommandContext, 'actor'>,
): Promise<{ state: S; revision: number } | null> {
  const folded = visibleFold(await foldStream(store, streamId, decider), decider.initialState, context.actor);
  return folded.revision === -1 ? null : { state: folded.state, revision: folded.revision };
}

/** Another organization's or mode's stream folds to nothing (as if absent); another entity's is forbidden. */
function visibleFold<S>(folded: FoldedStream<S>, initialState: S, actor: Actor): FoldedStream<S> {
  if (!folded.owner) return folded;
  const seen = visibility(folded.owner, actor);
  if (seen === 'forbidden') throw forbidden();
  return seen === 'visible' ? folded : { state: initialState, revision: -1, owner: null };
}
