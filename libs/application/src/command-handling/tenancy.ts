import { domainError } from '@app/domain';
import { modeOf } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { Actor } from './actor';
import { DomainException } from './domain-exception';

export type Visibility = 'visible' | 'not_found' | 'forbidden';

/**
 * Tenancy is enforced once, for every stream and document: the owner is recorded with it.
 * Another organization's resource, or another mode's (sandbox and live are two worlds), does not
 * exist for the caller (answered exactly like a missing one, so ids leak nothing); with an entity
 * token, another entity's resource is forbidden (403).
 */
export function visibility(
  owner: { organization_id?: unknown; entity_id?: unknown; mode?: unknown },
  actor: Actor,
): Visibility {
  if (owner.organization_id !== actor.organizationId) return 'not_found';
  if (modeOf(owner) !== actor.mode) return 'not_found';
  if (actor.entityId && owner.entity_id && owner.entity_id !== actor.entityId) return 'forbidden';
  return 'visible';
}

export const forbidden = () =>
  new DomainException(domainError('forbidden', 'forbidden', 'This resource belongs to another entity'));

/** The stream as the actor may see it: empty when it belongs to another organization. */
export function visibleStream(recorded: RecordedEvent[], actor: Actor): RecordedEvent[] {
  if (!recorded.length) return recorded;
  const seen = visibility({ ...recorded[0].metadata, mode: modeOf(recorded[0].metadata, recorded[0].data) }, actor);
  if (seen === 'forbidden') throw forbidden();
  return seen === 'visible' ? recorded : [];
}
