import type {
  Address,
  BusinessProfile,
  DocumentRecord,
  EntityEvent,
  Identification,
  IndividualProfile,
  Officer,
} from './entity.events';

interface EntityBase {
  readonly id: string;
  readonly mode: 'sandbox' | 'live';
  readonly creation_context: 'api' | 'quick_start';
  readonly name: string | null;
  readonly parent_entity: string | null;
  readonly parent_relationship: string | null;
  readonly address: Address | null;
  readonly meta: Readonly<Record<string, string>>;
  readonly documents: readonly DocumentRecord[];
  readonly created: number;
  readonly updated: number;
}

export interface IndividualEntity extends EntityBase {
  readonly type: 'individual';
  readonly person_id: string;
  readonly profile: IndividualProfile;
  readonly identification: Identification;
}

export interface BusinessEntity extends EntityBase {
  readonly type: 'business';
  readonly person_id: null;
  readonly profile: BusinessProfile;
  readonly operating_address: Address | null;
  readonly officers: readonly Officer[];
}

export type EntityRecord = IndividualEntity | BusinessEntity;

/**
 * `pending` covers both "being prepared" (`submitted: null`) and "under review" (`submitted` set):
 * the spec keeps the status `pending` through the review.
 */
type Lifecycle =
  | { readonly status: 'pending'; readonly submitted: number | null; readonly status_reason: null }
  | {
      readonly status: 'approved';
      readonly submitted: number | null;
      readonly status_reason: null;
      readonly decided: number;
    }
  | {
      readonly status: 'rejected';
      readonly submitted: number | null;
      readonly status_reason: string;
      readonly decided: number;
    };

export type EntityState = { readonly status: 'none' } | (EntityRecord & Lifecycle);
export type ExistingEntity = Exclude<EntityState, { status: 'none' }>;

export const initialEntityState: EntityState = { status: 'none' };

export const isUnderReview = (state: EntityState): boolean => state.status === 'pending' && state.submitted !== null;

export function evolveEntity(state: EntityState, event: EntityEvent): EntityState {
  switch (event.type) {
    case 'EntityCreated':
      return state.status === 'none' ? created(event.data) : state;
    case 'EntityUpdated': {
      if (state.status === 'none') return state;
      const { changes, updated } = event.data;
      const { officers, ...rest } = changes;
      const next = { ...state, ...rest, updated } as ExistingEntity;
      return officers && next.type === 'business' ? { ...next, officers } : next;
    }
    case 'DocumentUploaded': {
      if (state.status === 'none') return state;
      const { entity_id: _id, ...document } = event.data;
      return { ...state, documents: [...state.documents, document], updated: document.uploaded };
    }
    case 'OnboardingSubmitted':
      return state.status === 'pending'
        ? { ...state, submitted: event.data.submitted, updated: event.data.submitted }
        : state;
    case 'EntityApproved':
      return state.status === 'none'
        ? state
        : {
            ...state,
            status: 'approved',
            status_reason: null,
            decided: event.data.approved,
            updated: event.data.approved,
          };
    case 'EntityRejected':
      return state.status === 'none'
        ? state
        : {
            ...state,
            status: 'rejected',
            status_reason: event.data.reason,
            decided: event.data.rejected,
            updated: event.data.rejected,
          };
    default:
      return state;
  }
}

function created(data: Extract<EntityEvent, { type: 'EntityCreated' }>['data']): EntityState {
  const base = {
    id: data.entity_id,
    mode: data.mode,
    creation_context: data.creation_context,
    name: null,
    parent_entity: null,
    parent_relationship: null,
    address: data.address,
    meta: data.meta,
    documents: [],
    created: data.created,
    updated: data.created,
    status: 'pending' as const,
    submitted: null,
    status_reason: null,
  };
  if (data.type === 'individual') {
    return {
      ...base,
      type: 'individual',
      person_id: data.person_id ?? '',
      profile: data.profile as IndividualProfile,
      identification: {},
    };
  }
  return {
    ...base,
    type: 'business',
    person_id: null,
    profile: data.profile as BusinessProfile,
    operating_address: null,
    officers: [],
  };
}
