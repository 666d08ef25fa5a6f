import { modeOf, type Mode } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';

/**
 * Who is acting: resolved from the bearer credential, a process manager acting for an
 * organization, or the operator (decisions §11) acting in the organization and mode of the resource.
 */
export interface Actor {
  readonly kind: 'api_key' | 'entity_token' | 'system' | 'operator';
  readonly organizationId: string;
  /** The only world the actor sees and acts in (decisions §1). */
  readonly mode: Mode;
  /** The API key id, the token's issuing key id, the process manager's name, or `operator`. */
  readonly id: string;
  /** Set for entity tokens: every resource must belong to this entity. */
  readonly entityId?: string;
}

export interface CommandContext {
  readonly actor: Actor;
  readonly correlationId: string;
  /** The request id or the event that caused this command. */
  readonly causationId: string;
}

export const systemActor = (organizationId: string, name: string, mode: Mode): Actor => ({
  kind: 'system',
  organizationId,
  mode,
  id: name,
});

/** A process manager reacting to an event acts in that event's organization and mode, never another. */
export const reactionContext = (event: RecordedEvent, name: string): CommandContext => ({
  actor: systemActor(event.metadata.organization_id, name, modeOf(event.metadata, event.data)),
  correlationId: event.metadata.correlation_id,
  causationId: event.id,
});

/** What the log records as `actor`: `operator` for operator actions, `<kind>:<id>` otherwise. */
export const actorLabel = (actor: Actor): string =>
  actor.kind === 'operator' ? 'operator' : `${actor.kind}:${actor.id}`;
