import { ulid } from 'ulid';
import { isDomainError, type Decider, type DomainEvent } from '@app/domain';
import {
  WrongExpectedRevisionError,
  type EventStore,
  type EventToAppend,
  type RecordedEvent,
} from '@app/platform/event-store/event-store.port';
import type { CommandContext } from './actor';
import { DomainException } from './domain-exception';
import { visibleStream } from './tenancy';

export interface HandleOptions {
  /** Owning entity recorded in metadata when the stream is new; existing streams keep theirs. */
  readonly entityId?: string | null;
  readonly maxAttempts?: number;
  readonly schemaVersion?: number;
}

export interface HandleResult<E, S> {
  readonly state: S;
  readonly newEvents: readonly E[];
  readonly position: number | null;
}

/**
 * Load the stream, fold, decide, append with the revision read; on a conflict, read again and
 * decide again. A domain error is thrown as a DomainException for the HTTP layer to render.
 */
export async function handleCommand<C, E extends DomainEvent, S>(
  store: EventStore,
  streamId: string,
  decider: Decider<C, E, S>,
  command: C | ((state: S) => C),
  context: CommandContext,
  options: HandleOptions = {},
): Promise<HandleResult<E, S>> {
  const attempts = options.maxAttempts ?? 10;
  for (let attempt = 1; ; attempt++) {
    const recorded = visibleStream(await store.readStream(streamId), context.actor);
    const state = recorded.reduce((s, e) => decider.evolve(s, e as unknown as E), decider.initialState);
    const decided = decider.decide(typeof command === 'function' ? (command as (s: S) => C)(state) : command, state);
    if (isDomainError(decided)) throw new DomainException(decided);
    if (decided.length === 0) return { state, newEvents: [], position: null };
    const entityId = recorded.length ? recorded[0].metadata.entity_id ?? null : options.entityId ?? null;
    try {
      const result = await store.append(
        streamId,
        decided.map((e) => toAppend(e, context, entityId, options.schemaVersion ?? 1)),
        recorded.length ? recorded[recorded.length - 1].revision : 'no_stream',
      );
      return { state: decided.reduce(decider.evolve, state), newEvents: decided, position: result.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= attempts) throw error;
    }
  }
}

export function toAppend(event: DomainEvent, context: CommandContext, entityId: string | null, schemaVersion = 1): EventToAppend {
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
      occurred_at: Date.now(),
      actor: `${context.actor.kind}:${context.actor.id}`,
    },
  };
}

/** Folds a stream for a read (read-your-writes), enforcing tenancy; null when absent or not visible. */
export async function loadAggregate<E extends DomainEvent, S>(
  store: EventStore,
  streamId: string,
  decider: Pick<Decider<unknown, E, S>, 'evolve' | 'initialState'>,
  context: Pick<CommandContext, 'actor'>,
): Promise<{ state: S; events: RecordedEvent[] } | null> {
  const recorded = visibleStream(await store.readStream(streamId), context.actor);
  if (!recorded.length) return null;
  return { state: recorded.reduce((s, e) => decider.evolve(s, e as unknown as E), decider.initialState), events: recorded };
}
