import type { ChangesApplied, DocumentKey, ExistingEntity } from '@app/domain/onboarding';
import {
  BUSINESS_UPDATE_GROUPS,
  INDIVIDUAL_UPDATE_GROUPS,
  type BusinessEntityUpdateBody,
  type EntitySummaryBody,
  type IndividualEntityUpdateBody,
} from './entity.schema';

type Individual = Extract<ExistingEntity, { type: 'individual' }>;
type Business = Extract<ExistingEntity, { type: 'business' }>;

/** Every group is always present, empty when nothing in it changed (or nothing changed at all). */
const groups = (names: string[], applied: ChangesApplied | null) =>
  Object.fromEntries(names.map((g) => [g, applied?.[g] ?? []]));

const envelope = <D>(applied: ChangesApplied | null, data: D) => ({
  message: applied ? 'Entity updated' : 'No changes: the entity already had these values',
  status: 'success' as const,
  data,
});

/** The entity summary of both update responses. */
function summary(entity: ExistingEntity): EntitySummaryBody {
  return {
    id: entity.id,
    type: entity.type,
    status: entity.status,
    name: entity.name,
    is_root: entity.parent_entity === null,
    parent_entity: entity.parent_entity,
    parent_relationship: entity.parent_relationship,
    // A business is its own business record and an individual its own user: no separate ids exist.
    business_id: entity.type === 'business' ? entity.id : null,
    user_id: entity.person_id,
    creation_context: entity.creation_context,
    created: entity.created,
    updated: entity.updated,
  };
}

/** How far a kind of document has got: none uploaded, uploaded and awaiting a decision, or decided. */
function verification(entity: Individual, key: DocumentKey): 'not_started' | 'pending' | 'verified' | 'rejected' {
  if (!entity.documents.some((d) => d.key === key)) return 'not_started';
  if (entity.status === 'approved') return 'verified';
  return entity.status === 'rejected' ? 'rejected' : 'pending';
}

export function presentIndividualUpdate(
  entity: Individual,
  applied: ChangesApplied | null,
): IndividualEntityUpdateBody {
  const latestAddressDocument = [...entity.documents].reverse().find((d) => d.key === 'address');
  return envelope(applied, {
    changes_applied: groups(INDIVIDUAL_UPDATE_GROUPS, applied),
    address: entity.address,
    entity: summary(entity),
    person: { person_id: entity.person_id, ...entity.profile },
    identification: {
      document: entity.identification.document ?? null,
      verification_status: verification(entity, 'identity'),
      proof_of_address: {
        type: entity.identification.proof_of_address?.type ?? null,
        document_id: entity.identification.proof_of_address?.document_id ?? latestAddressDocument?.document_id ?? null,
        verification_status: verification(entity, 'address'),
      },
    },
  });
}

export function presentBusinessUpdate(entity: Business, applied: ChangesApplied | null): BusinessEntityUpdateBody {
  const { trading_name, business_type, country_of_incorporation, incorporation_meta, ...rest } = entity.profile;
  return envelope(applied, {
    changes_applied: groups(BUSINESS_UPDATE_GROUPS, applied),
    address: entity.address,
    operating_address: entity.operating_address,
    entity: summary(entity),
    business: {
      ...rest,
      trade_name: trading_name,
      type: business_type,
      incorporation_meta: { ...incorporation_meta, country: country_of_incorporation },
    },
    business_meta: entity.meta,
    business_officers: entity.officers,
  });
}
