import { invalid, type DomainError } from '../../shared';
import type {
  Address,
  BusinessProfile,
  BusinessType,
  EntityChanges,
  Identification,
  IndividualProfile,
  OfficerPerson,
} from './entity.events';
import type { BusinessEntity, EntityRecord, IndividualEntity } from './entity';
import { mergeMeta, mergeSection } from './merge';
import { applyOfficerChanges, type OfficerChange } from './entity.officers';

interface EntityFieldsPatch {
  readonly name?: string | null;
  readonly parent_entity?: string | null;
  readonly parent_relationship?: string | null;
}

export interface IndividualPatch extends EntityFieldsPatch {
  readonly person?: Partial<IndividualProfile>;
  readonly address?: Partial<Address>;
  readonly identification?: Identification;
}

export interface BusinessFieldsPatch {
  readonly legal_name?: string;
  readonly trade_name?: string;
  readonly website?: string;
  readonly description?: string;
  readonly type?: BusinessType;
  readonly phonenumber?: string;
  readonly email?: string;
  readonly registration_number?: string;
  readonly incorporation_meta?: {
    readonly year?: number;
    readonly month?: number;
    readonly country?: string;
    readonly state?: string;
  };
}

export interface BusinessPatch extends EntityFieldsPatch {
  readonly business?: BusinessFieldsPatch;
  readonly address?: Partial<Address>;
  readonly operating_address?: Partial<Address>;
  readonly meta?: Readonly<Record<string, string>>;
  readonly business_officers?: readonly OfficerChange[];
}

export type { OfficerChange, OfficerPerson };

interface Changes {
  changes: Record<string, unknown>;
  applied: Record<string, string[]>;
}

export function individualChanges(
  state: IndividualEntity,
  patch: IndividualPatch,
): { changes: EntityChanges; applied: Record<string, string[]> } | DomainError {
  const out = entityFieldChanges(state, patch);
  if (!('changes' in out)) return out;
  const person = mergeSection<IndividualProfile>(state.profile, patch.person, '');
  if (person.changed.length) out.changes.profile = person.value;
  out.applied.person_fields = person.changed;
  const address = addressChanges(state.address, patch.address, 'address', out);
  if (address) return address;
  const identification = mergeSection<Identification>(state.identification, patch.identification, '');
  const unknownDocument = checkDocumentRefs(state, identification.value);
  if (unknownDocument) return unknownDocument;
  if (identification.changed.length) out.changes.identification = identification.value;
  out.applied.identification_fields = identification.changed;
  return out as { changes: EntityChanges; applied: Record<string, string[]> };
}

const RENAMED: Partial<Record<keyof BusinessFieldsPatch, keyof BusinessProfile>> = {
  trade_name: 'trading_name',
  type: 'business_type',
};

export function businessChanges(
  state: BusinessEntity,
  patch: BusinessPatch,
  newOfficerIds: readonly string[],
): { changes: EntityChanges; applied: Record<string, string[]> } | DomainError {
  const out = entityFieldChanges(state, patch);
  if (!('changes' in out)) return out;
  const profile: Record<string, unknown> = { ...state.profile };
  const fields: string[] = [];
  const { incorporation_meta, ...flat } = patch.business ?? {};
  for (const [field, value] of Object.entries(flat)) {
    const target = RENAMED[field as keyof BusinessFieldsPatch] ?? field;
    if (value === undefined || profile[target] === value) continue;
    profile[target] = value;
    fields.push(field);
  }
  // The incorporation country is the entity's country_of_incorporation, kept in one place.
  const { country, ...incorporation } = incorporation_meta ?? {};
  if (country !== undefined && country !== profile.country_of_incorporation) {
    profile.country_of_incorporation = country;
    fields.push('incorporation_meta.country');
  }
  const meta = mergeSection(state.profile.incorporation_meta, incorporation, 'incorporation_meta');
  if (meta.changed.length) profile.incorporation_meta = meta.value;
  fields.push(...meta.changed);
  if (fields.length) out.changes.profile = profile;
  out.applied.business_fields = fields;
  const address =
    addressChanges(state.address, patch.address, 'address', out) ??
    addressChanges(state.operating_address, patch.operating_address, 'operating_address', out);
  if (address) return address;
  const metaChange = mergeMeta(state.meta, patch.meta);
  if (metaChange.changed.length) out.changes.meta = metaChange.value;
  out.applied.meta_fields = metaChange.changed;
  const officers = applyOfficerChanges(state.officers, patch.business_officers ?? [], newOfficerIds);
  if (!('officers' in officers)) return officers;
  if (officers.added.length + officers.updated.length + officers.removed.length)
    out.changes.officers = officers.officers;
  Object.assign(out.applied, {
    officers_added: officers.added,
    officers_updated: officers.updated,
    officers_removed: officers.removed,
  });
  return out as { changes: EntityChanges; applied: Record<string, string[]> };
}

function entityFieldChanges(state: EntityRecord, patch: EntityFieldsPatch): Changes | DomainError {
  if (patch.parent_entity === state.id) return invalid('parent_entity', 'an entity cannot be its own parent');
  const out: Changes = { changes: {}, applied: { entity_fields: [] } };
  for (const field of ['name', 'parent_entity', 'parent_relationship'] as const) {
    if (patch[field] === undefined || patch[field] === state[field]) continue;
    out.changes[field] = patch[field];
    out.applied.entity_fields.push(field);
  }
  return out;
}

/** An address is merged field by field; a first address must be complete enough to be one. */
function addressChanges(
  current: Address | null,
  patch: Partial<Address> | undefined,
  section: 'address' | 'operating_address',
  out: Changes,
): DomainError | null {
  const merged = mergeSection<Address>(current, patch, section);
  out.applied.address_fields = [...(out.applied.address_fields ?? []), ...merged.changed];
  if (!merged.changed.length) return null;
  for (const required of ['line_1', 'city', 'country_code'] as const) {
    if (!merged.value[required])
      return invalid(
        `${section}.${required}`,
        `${section}.${required} is required when the entity has no ${section.replace('_', ' ')} yet`,
      );
  }
  out.changes[section] = merged.value;
  return null;
}

/** Identification may point at uploaded documents; those must be this entity's, of the right kind. */
function checkDocumentRefs(state: IndividualEntity, identification: Identification): DomainError | null {
  const refs = [
    { field: 'identification.document.document_id', id: identification.document?.document_id, key: 'identity' },
    {
      field: 'identification.proof_of_address.document_id',
      id: identification.proof_of_address?.document_id,
      key: 'address',
    },
  ];
  for (const ref of refs) {
    if (ref.id && !state.documents.some((d) => d.document_id === ref.id && d.key === ref.key)) {
      return invalid(ref.field, `no ${ref.key} document ${ref.id} was uploaded for this entity`);
    }
  }
  return null;
}
