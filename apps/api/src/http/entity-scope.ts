import { domainError } from '@app/domain';
import { DomainException, forbidden, type Actor } from '@app/application/command-handling';

/**
 * The entity a request acts for (decisions §2): inferred from an entity token, where another
 * entity's id is forbidden; required with an API key, where its absence is a 400 naming the field.
 */
export function entityScope(actor: Actor, requested: string | undefined | null): string {
  if (actor.entityId) {
    if (requested && requested !== actor.entityId) throw forbidden();
    return actor.entityId;
  }
  if (!requested) {
    throw new DomainException(
      domainError('validation', 'validation_error', 'entity_id is required when using an API key', {
        errors: [{ field: 'entity_id', message: 'entity_id is required when using an API key' }],
      }),
    );
  }
  return requested;
}

/** Like entityScope, but an API key may omit it (lists across the organization). */
export function optionalEntityScope(actor: Actor, requested: string | undefined | null): string | undefined {
  if (actor.entityId) return entityScope(actor, requested);
  return requested ?? undefined;
}
