import type { ExistingEntity } from '@app/domain/onboarding';
import type { BusinessEntityBody, IndividualEntityBody, QuickStartEntityBody } from './entity.schema';

/** The entity resource (spec "Entity"): status, profile by type, meta, ms timestamps; returns its schema's type (entity.schema.ts). */
export function presentEntity(entity: ExistingEntity): IndividualEntityBody | BusinessEntityBody {
  const common = {
    id: entity.id,
    object: 'entity' as const,
    type: entity.type,
    status: entity.status,
    status_reason: entity.status_reason,
  };
  const tail = {
    meta: entity.meta,
    name: entity.name,
    parent_entity: entity.parent_entity,
    documents: entity.documents.map((d) => ({
      id: d.document_id,
      key: d.key,
      status: 'uploaded' as const,
      created: d.uploaded,
    })),
    submitted: entity.submitted,
    created: entity.created,
    updated: entity.updated,
  };
  if (entity.type === 'individual') {
    // `type` again, narrowed (it keeps its place after `object`).
    return {
      ...common,
      type: entity.type,
      person_id: entity.person_id,
      profile: entity.profile,
      address: entity.address,
      ...tail,
    };
  }
  return {
    ...common,
    type: entity.type,
    profile: { ...entity.profile, registered_address: entity.address },
    operating_address: entity.operating_address,
    ...tail,
  };
}

/**
 * POST /entities answers flat (spec sample). `active` is the sample's word for an approved
 * entity; a live-key quick start is still `pending` and says so.
 */
export function presentQuickStart(entity: ExistingEntity): QuickStartEntityBody {
  if (entity.type !== 'individual') throw new Error('the quick start creates individuals only');
  return {
    id: entity.id,
    object: 'entity',
    type: entity.type,
    first_name: entity.profile.first_name,
    last_name: entity.profile.last_name,
    email: entity.profile.email,
    country: entity.profile.country_of_residence,
    // A just-created entity is approved (sandbox) or pending (live): the schema's two values.
    status: entity.status === 'approved' ? ('active' as const) : ('pending' as const),
    person_id: entity.person_id,
    created_at: new Date(entity.created).toISOString(),
  };
}
