import { conflict, domainError, notFound, rule, type Decider, type Decision, type DomainError } from '../../shared';
import type { CounterpartyEvent } from './counterparty.events';
import {
  applyProfile,
  defaultNickname,
  NICKNAME_MAX,
  type CounterpartyType,
  type ProfilePatch,
} from './counterparty.profile';
import {
  evolveCounterparty,
  initialCounterpartyState,
  type CounterpartyRecord,
  type CounterpartyState,
} from './counterparty';
import { checkPaymentDetail, type BookDestination, type NewPaymentDetail } from './payment-detail.check';

/**
 * Who may act on an existing counterparty: an entity token acts only for its entity (else 403);
 * an API key that names an entity confirms the scope (another entity's counterparty: 404).
 */
export interface Scope {
  readonly entity_id: string;
  readonly kind: 'token' | 'confirm';
}

export type CounterpartyCommand =
  | {
      readonly type: 'CreateCounterparty';
      readonly counterparty_id: string;
      readonly entity_id: string;
      readonly counterparty_type: CounterpartyType;
      readonly nickname: string | null;
      readonly profile: ProfilePatch;
      readonly meta: Readonly<Record<string, string>>;
      readonly now: number;
    }
  | {
      readonly type: 'UpdateCounterparty';
      readonly counterparty_id: string;
      readonly scope: Scope | null;
      /** Another entity of the organization (checked by the caller) to move the counterparty to. */
      readonly reassign_to: string | null;
      readonly nickname?: string;
      readonly profile?: ProfilePatch;
      /** Merged by key; "" removes a key. */
      readonly meta?: Readonly<Record<string, string>>;
      readonly now: number;
    }
  | {
      readonly type: 'DeactivateCounterparty';
      readonly counterparty_id: string;
      readonly scope: Scope | null;
      readonly now: number;
    }
  | {
      readonly type: 'AddPaymentDetail';
      readonly counterparty_id: string;
      readonly scope: Scope | null;
      readonly payment_detail_id: string;
      readonly detail: NewPaymentDetail;
      readonly book: BookDestination | null;
      readonly now: number;
    };

/** Key order is not meaning: events written by older code may list fields in another order. */
const canonical = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(canonical)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
        )
      : v;
const sameJson = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

const detailIds = (state: CounterpartyRecord) => state.payment_details.map((d) => d.payment_detail_id);

const invalidProfile = (errors: { field: string; message: string }[]): DomainError =>
  domainError('validation', 'validation_error', `${errors[0].field}: ${errors[0].message}`, { errors });

function nicknameProblem(nickname: string): DomainError | null {
  return nickname.length > NICKNAME_MAX || !nickname.trim()
    ? invalidProfile([{ field: 'nickname', message: `nickname must be 1-${NICKNAME_MAX} characters` }])
    : null;
}

function create(
  command: Extract<CounterpartyCommand, { type: 'CreateCounterparty' }>,
  state: CounterpartyState,
): Decision<CounterpartyEvent> {
  if (state.status !== 'none')
    return conflict('counterparty_exists', `Counterparty ${command.counterparty_id} already exists`);
  const profile = applyProfile(command.counterparty_type, null, command.profile);
  if (Array.isArray(profile)) return invalidProfile(profile);
  const nickname = command.nickname ?? defaultNickname(command.counterparty_type, profile);
  const bad = nicknameProblem(nickname);
  if (bad) return bad;
  const { counterparty_id, entity_id, counterparty_type, meta, now } = command;
  return [
    {
      type: 'CounterpartyCreated',
      data: { counterparty_id, entity_id, type: counterparty_type, nickname, profile, meta, created: now },
    },
  ];
}

function update(
  command: Extract<CounterpartyCommand, { type: 'UpdateCounterparty' }>,
  state: CounterpartyRecord,
): Decision<CounterpartyEvent> {
  const profile = command.profile ? applyProfile(state.type, state.profile, command.profile) : state.profile;
  if (Array.isArray(profile)) return invalidProfile(profile);
  const nickname = command.nickname ?? state.nickname;
  const bad = nicknameProblem(nickname);
  if (bad) return bad;
  const meta = Object.fromEntries(
    Object.entries({ ...state.meta, ...(command.meta ?? {}) }).filter(([, v]) => v !== ''),
  );
  const entity_id = command.reassign_to ?? state.entity_id;
  const changed = [
    ...(nickname !== state.nickname ? ['nickname'] : []),
    ...(!sameJson(profile, state.profile) ? ['profile'] : []),
    ...(!sameJson(meta, state.meta) ? ['meta'] : []),
    ...(entity_id !== state.entity_id ? ['entity_id'] : []),
  ];
  // Repeating current values records nothing.
  if (!changed.length) return [];
  const previous_entity_id = entity_id !== state.entity_id ? state.entity_id : null;
  const payment_detail_ids = detailIds(state);
  return [
    {
      type: 'CounterpartyUpdated',
      data: {
        counterparty_id: state.id,
        entity_id,
        previous_entity_id,
        nickname,
        profile,
        meta,
        changed,
        payment_detail_ids,
        updated: command.now,
      },
    },
  ];
}

function deactivate(
  command: Extract<CounterpartyCommand, { type: 'DeactivateCounterparty' }>,
  state: CounterpartyRecord,
): Decision<CounterpartyEvent> {
  if (state.status === 'inactive')
    return conflict('counterparty_inactive', `Counterparty ${state.id} is already inactive`);
  return [
    {
      type: 'CounterpartyDeactivated',
      data: {
        counterparty_id: state.id,
        entity_id: state.entity_id,
        payment_detail_ids: detailIds(state),
        deactivated: command.now,
      },
    },
  ];
}

function addPaymentDetail(
  command: Extract<CounterpartyCommand, { type: 'AddPaymentDetail' }>,
  state: CounterpartyRecord,
): Decision<CounterpartyEvent> {
  if (state.status === 'inactive') {
    return rule('counterparty_inactive', `Counterparty ${state.id} is inactive and cannot take payment details`, [
      { field: 'counterparty_id', message: 'the counterparty is inactive' },
    ]);
  }
  const block = checkPaymentDetail(command.detail, command.book);
  if ('kind' in block) return block;
  const { payment_detail_id, detail, now } = command;
  return [
    {
      type: 'PaymentDetailAdded',
      data: {
        ...block,
        payment_detail_id,
        counterparty_id: state.id,
        entity_id: state.entity_id,
        currency: detail.currency,
        country: detail.country,
        added: now,
      },
    },
  ];
}

function outOfScope(scope: Scope | null, state: CounterpartyRecord): DomainError | null {
  if (!scope || scope.entity_id === state.entity_id) return null;
  return scope.kind === 'token'
    ? domainError('forbidden', 'forbidden', 'This resource belongs to another entity')
    : notFound('counterparty', state.id);
}

export function decideCounterparty(
  command: CounterpartyCommand,
  state: CounterpartyState,
): Decision<CounterpartyEvent> {
  if (command.type === 'CreateCounterparty') return create(command, state);
  if (state.status === 'none') return notFound('counterparty', command.counterparty_id);
  const refused = outOfScope(command.scope, state);
  if (refused) return refused;
  switch (command.type) {
    case 'UpdateCounterparty':
      return update(command, state);
    case 'DeactivateCounterparty':
      return deactivate(command, state);
    case 'AddPaymentDetail':
      return addPaymentDetail(command, state);
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const counterpartyDecider: Decider<CounterpartyCommand, CounterpartyEvent, CounterpartyState> = {
  initialState: initialCounterpartyState,
  decide: decideCounterparty,
  evolve: evolveCounterparty,
};
