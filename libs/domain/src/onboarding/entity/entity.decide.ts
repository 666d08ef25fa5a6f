import {
  conflict,
  domainError,
  invalid,
  isDomainError,
  notFound,
  rule,
  type Decider,
  type Decision,
  type DomainError,
} from '../../shared';
import type { Address, DocumentRecord, EntityEvent, EntityType, Profile, ReviewDecision } from './entity.events';
import { evolveEntity, initialEntityState, isUnderReview, type EntityState, type ExistingEntity } from './entity';
import { businessChanges, individualChanges, type BusinessPatch, type IndividualPatch } from './entity.update';
import { automaticReview } from './entity.review';

export type EntityCommand =
  | {
      readonly type: 'CreateEntity';
      readonly entity_id: string;
      readonly person_id: string | null;
      readonly entity_type: EntityType;
      readonly profile: Profile;
      readonly address: Address | null;
      readonly meta: Readonly<Record<string, string>>;
      readonly mode: 'sandbox' | 'live';
      readonly creation_context: 'api' | 'quick_start';
      readonly now: number;
    }
  | {
      readonly type: 'UpdateIndividualEntity';
      readonly entity_id: string;
      readonly patch: IndividualPatch;
      readonly now: number;
    }
  | {
      readonly type: 'UpdateBusinessEntity';
      readonly entity_id: string;
      readonly patch: BusinessPatch;
      /** Ids for officers added by the patch, by item index. */
      readonly new_officer_ids: readonly string[];
      readonly now: number;
    }
  | { readonly type: 'UploadDocument'; readonly entity_id: string; readonly document: DocumentRecord }
  | { readonly type: 'SubmitOnboarding'; readonly entity_id: string; readonly now: number }
  | {
      readonly type: 'ReviewEntity';
      readonly entity_id: string;
      readonly decision: ReviewDecision;
      readonly reason: string | null;
      readonly reviewer: 'sandbox_review' | 'operator';
      readonly now: number;
    }
  | { readonly type: 'CompleteAutomaticReview'; readonly entity_id: string; readonly now: number };

const missing = (id: string) => notFound('entity', id);

/** Documents, updates and submissions change what is reviewed: not while a review runs, never after a rejection. */
function editable(state: ExistingEntity): DomainError | null {
  if (isUnderReview(state))
    return conflict('entity_under_review', 'The entity is under review and cannot change until it is decided');
  if (state.status === 'rejected') return conflict('entity_rejected', 'The entity was rejected and cannot change');
  return null;
}

function create(command: Extract<EntityCommand, { type: 'CreateEntity' }>, state: EntityState): Decision<EntityEvent> {
  if (state.status !== 'none') return conflict('entity_exists', `Entity ${command.entity_id} already exists`);
  const { type: _t, entity_type, now, ...data } = command;
  const created: EntityEvent = { type: 'EntityCreated', data: { ...data, type: entity_type, created: now } };
  // The quick start skips KYC only in the sandbox; a live quick-start entity is onboarded like any other.
  if (command.creation_context !== 'quick_start' || command.mode !== 'sandbox') return [created];
  return [
    created,
    {
      type: 'EntityApproved',
      data: { entity_id: command.entity_id, reviewer: 'quick_start', reason: null, approved: now },
    },
  ];
}

function update(
  command: Extract<EntityCommand, { type: 'UpdateIndividualEntity' | 'UpdateBusinessEntity' }>,
  state: EntityState,
): Decision<EntityEvent> {
  const wanted = command.type === 'UpdateIndividualEntity' ? 'individual' : 'business';
  if (state.status === 'none' || state.type !== wanted)
    return domainError('not_found', 'entity_not_found', `No ${wanted} entity with id ${command.entity_id}`);
  const blocked = editable(state);
  if (blocked) return blocked;
  const result =
    command.type === 'UpdateIndividualEntity' && state.type === 'individual'
      ? individualChanges(state, command.patch)
      : command.type === 'UpdateBusinessEntity' && state.type === 'business'
        ? businessChanges(state, command.patch, command.new_officer_ids)
        : missing(command.entity_id);
  if (isDomainError(result)) return result;
  if (Object.keys(result.changes).length === 0) return [];
  return [
    {
      type: 'EntityUpdated',
      data: {
        entity_id: command.entity_id,
        changes: result.changes,
        changes_applied: result.applied,
        updated: command.now,
      },
    },
  ];
}

function upload(
  command: Extract<EntityCommand, { type: 'UploadDocument' }>,
  state: EntityState,
): Decision<EntityEvent> {
  if (state.status === 'none') return missing(command.entity_id);
  const blocked = editable(state);
  if (blocked) return blocked;
  if (state.person_id === null || command.document.person_id !== state.person_id) {
    return invalid('link_to_identity[person_id]', 'documents are linked to the person_id of an individual entity');
  }
  if (state.documents.some((d) => d.document_id === command.document.document_id)) return [];
  return [{ type: 'DocumentUploaded', data: { ...command.document, entity_id: command.entity_id } }];
}

function submit(
  command: Extract<EntityCommand, { type: 'SubmitOnboarding' }>,
  state: EntityState,
): Decision<EntityEvent> {
  if (state.status === 'none') return missing(command.entity_id);
  if (state.status !== 'pending') return conflict('entity_already_decided', `The entity was already ${state.status}`);
  if (isUnderReview(state)) return conflict('entity_under_review', 'The entity is already under review');
  const lacking = missingRequirements(state);
  if (lacking) return lacking;
  return [{ type: 'OnboardingSubmitted', data: { entity_id: command.entity_id, submitted: command.now } }];
}

/** An individual needs an identity and an address document linked to its person_id; a business its registered address. */
function missingRequirements(state: ExistingEntity): DomainError | null {
  if (state.type === 'business') {
    return state.address
      ? null
      : rule('business_details_missing', 'The business has no registered address', [
          { field: 'registered_address', message: 'required' },
        ]);
  }
  const lacking = (['identity', 'address'] as const).filter(
    (key) => !state.documents.some((d) => d.key === key && d.person_id === state.person_id),
  );
  if (!lacking.length) return null;
  return domainError(
    'rule',
    'documents_missing',
    `Upload ${lacking.map((k) => `an ${k} document`).join(' and ')} before submitting`,
    {
      errors: lacking.map((key) => ({
        field: `documents.${key}`,
        message: `an ${key} document linked to ${state.person_id} is required`,
      })),
      details: { missing_documents: lacking },
    },
  );
}

function review(command: Extract<EntityCommand, { type: 'ReviewEntity' }>, state: EntityState): Decision<EntityEvent> {
  if (state.status === 'none') return missing(command.entity_id);
  if (!isUnderReview(state))
    return conflict('entity_not_under_review', 'Only a submitted entity awaiting review can be reviewed');
  const { entity_id, reviewer, now } = command;
  if (command.decision === 'approved')
    return [{ type: 'EntityApproved', data: { entity_id, reviewer, reason: command.reason, approved: now } }];
  const reason =
    command.reason ?? (reviewer === 'operator' ? 'Rejected by the operator' : 'Rejected in sandbox review');
  return [{ type: 'EntityRejected', data: { entity_id, reviewer, reason, rejected: now } }];
}

/** Idempotent: a review that already happened (or a replayed trigger) decides nothing. */
function completeAutomaticReview(
  command: Extract<EntityCommand, { type: 'CompleteAutomaticReview' }>,
  state: EntityState,
): Decision<EntityEvent> {
  if (state.status === 'none' || !isUnderReview(state)) return [];
  const outcome = automaticReview(state);
  const { entity_id, now } = command;
  if (outcome.decision === 'approved')
    return [{ type: 'EntityApproved', data: { entity_id, reviewer: 'auto_review', reason: null, approved: now } }];
  return [
    { type: 'EntityRejected', data: { entity_id, reviewer: 'auto_review', reason: outcome.reason, rejected: now } },
  ];
}

export function decideEntity(command: EntityCommand, state: EntityState): Decision<EntityEvent> {
  switch (command.type) {
    case 'CreateEntity':
      return create(command, state);
    case 'UpdateIndividualEntity':
    case 'UpdateBusinessEntity':
      return update(command, state);
    case 'UploadDocument':
      return upload(command, state);
    case 'SubmitOnboarding':
      return submit(command, state);
    case 'ReviewEntity':
      return review(command, state);
    case 'CompleteAutomaticReview':
      return completeAutomaticReview(command, state);
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const entityDecider: Decider<EntityCommand, EntityEvent, EntityState> = {
  initialState: initialEntityState,
  decide: decideEntity,
  evolve: evolveEntity,
};
