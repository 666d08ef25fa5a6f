import { invalid } from '@app/domain';
import { DomainException, type Actor } from '../../command-handling';
import { entityIdOfPerson, personIdOf } from '../streams';

const PERSON_FIELD = 'link_to_identity[person_id]';

/** The person a document is for: as requested, or the entity token's own person. */
export function documentPerson(actor: Actor, requested: string | undefined): { personId: string; entityId: string } {
  const inferred = actor.entityId ? personIdOf(actor.entityId) : undefined;
  const personId = requested ?? inferred;
  if (!personId) throw new DomainException(invalid(PERSON_FIELD, `${PERSON_FIELD} is required when using an API key`));
  const entityId = entityIdOfPerson(personId);
  if (!entityId) throw new DomainException(invalid(PERSON_FIELD, 'must be a person_id (per_…) from entity creation'));
  return { personId, entityId };
}
