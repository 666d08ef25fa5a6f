import { domainError } from '@app/domain';
import { DomainException, type Actor } from '@app/application/command-handling';

/** GET /cards: `account_id`, or the entity (inferred from a token, `entity_id` with an API key; decisions §2). */
export function requireEntityOrAccount(
  actor: Actor,
  entityId: string | undefined,
  accountId: string | undefined,
): string | undefined {
  if (entityId || accountId || actor.entityId) return entityId;
  throw new DomainException(
    domainError('validation', 'validation_error', 'entity_id or account_id is required when using an API key', {
      errors: [{ field: 'entity_id', message: 'entity_id is required when using an API key without account_id' }],
    }),
  );
}
