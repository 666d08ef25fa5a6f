import { domainError, notFound, type Decider, type Decision, type DomainError } from '../../shared';
import type { IntentActionEvent, IntentActionRecord, IntentActionStatus } from './intent-action.events';
import {
  evolveIntentAction,
  initialIntentActionState,
  isFinal,
  isIntentAction,
  type ExistingIntentAction,
  type IntentActionState,
} from './intent-action';

export const AUTHENTICATION_RESULTS = ['success', 'failure'] as const;
export type AuthenticationResult = (typeof AUTHENTICATION_RESULTS)[number];

export type IntentActionCommand =
  | {
      readonly type: 'CreateIntentAction';
      readonly action: IntentActionRecord;
      readonly acquirer_token: string | null;
      readonly authentication_expires: number | null;
      /** The acquirer refused the card before anything could happen (e.g. `acquirer_unavailable`). */
      readonly failure: string | null;
    }
  | {
      readonly type: 'AuthenticateIntentAction';
      readonly intent_action_id: string;
      readonly result: AuthenticationResult;
      readonly now: number;
    }
  | { readonly type: 'ExpireAuthentication'; readonly intent_action_id: string; readonly now: number }
  | {
      /**
       * Claims the acquirer call before it is made. `take_over_after_ms`: null for a request (it
       * never takes over a claim), the deadline for the backstop (a claim older than it is taken over).
       */
      readonly type: 'StartAuthorization';
      readonly intent_action_id: string;
      readonly idempotency_key: string;
      readonly take_over_after_ms: number | null;
      readonly now: number;
    }
  | { readonly type: 'CompleteIntentAction'; readonly intent_action_id: string; readonly now: number }
  | {
      readonly type: 'FailIntentAction';
      readonly intent_action_id: string;
      readonly status_reason: string;
      readonly now: number;
    };

type Cmd<T extends IntentActionCommand['type']> = Extract<IntentActionCommand, { type: T }>;

const stateError = (code: string, state: ExistingIntentAction, message: string): DomainError =>
  domainError('conflict', code, message, { details: { current_status: state.status } });

const moved = (
  state: ExistingIntentAction,
  status: IntentActionStatus,
  now: number,
  status_reason: string | null = null,
): IntentActionRecord => ({
  ...state.action,
  status,
  status_reason,
  requires_action: false,
  next_action: null,
  updated: now,
});

function create(command: Cmd<'CreateIntentAction'>, state: IntentActionState): Decision<IntentActionEvent> {
  if (isIntentAction(state)) return [];
  const { action, acquirer_token, authentication_expires, failure } = command;
  const created: IntentActionEvent = {
    type: 'IntentActionCreated',
    data: { action, acquirer_token, authentication_expires },
  };
  if (failure === null) return [created];
  const failed = {
    ...action,
    status: 'failed' as const,
    status_reason: failure,
    requires_action: false,
    next_action: null,
  };
  return [created, { type: 'IntentActionFailed', data: { action: failed } }];
}

const expired = (state: ExistingIntentAction, now: number) =>
  state.authentication_expires !== null && now > state.authentication_expires;

/** The 3-D Secure page or the sandbox endpoint: once, and only while the page is still valid. */
function authenticate(
  command: Cmd<'AuthenticateIntentAction'>,
  state: ExistingIntentAction,
): Decision<IntentActionEvent> {
  if (state.status !== 'pending_user_action')
    return stateError(
      'authentication_not_pending',
      state,
      `Intent action ${state.action.id} is ${state.status}; it awaits no authentication`,
    );
  if (expired(state, command.now))
    return stateError(
      'authentication_expired',
      state,
      `The authentication of intent action ${state.action.id} has expired`,
    );
  if (command.result === 'failure')
    return [
      { type: 'IntentActionFailed', data: { action: moved(state, 'failed', command.now, 'authentication_failed') } },
    ];
  return [{ type: 'IntentActionAuthenticated', data: { action: moved(state, 'pending', command.now) } }];
}

function expire(command: Cmd<'ExpireAuthentication'>, state: ExistingIntentAction): Decision<IntentActionEvent> {
  if (state.status !== 'pending_user_action' || !expired(state, command.now)) return [];
  return [
    { type: 'IntentActionFailed', data: { action: moved(state, 'failed', command.now, 'authentication_expired') } },
  ];
}

/**
 * One caller at a time calls the acquirer for a `pending` action: the claim is appended with the
 * revision read, so of two racing callers the second re-reads, finds the claim and gets [] (it
 * lost). A claim older than the backstop's deadline is presumed dead (its caller crashed between
 * claim and answer) and may be claimed again; the key stays the first claim's, so the acquirer
 * sees one step. Anything but `pending` has nothing to authorize: [].
 */
function startAuthorization(
  command: Cmd<'StartAuthorization'>,
  state: ExistingIntentAction,
): Decision<IntentActionEvent> {
  if (state.status !== 'pending') return [];
  const claim = state.authorization;
  if (claim && (command.take_over_after_ms === null || command.now < claim.started + command.take_over_after_ms))
    return [];
  const idempotency_key = claim?.idempotency_key ?? command.idempotency_key;
  return [
    {
      type: 'IntentActionAuthorizationStarted',
      data: { intent_action_id: state.action.id, idempotency_key, started: command.now },
    },
  ];
}

/** The acquirer's answer; repeating it is a no-op, a contradicting one is refused. */
function decideOutcome(
  command: Cmd<'CompleteIntentAction' | 'FailIntentAction'>,
  state: ExistingIntentAction,
): Decision<IntentActionEvent> {
  const target = command.type === 'CompleteIntentAction' ? 'completed' : 'failed';
  if (state.status === target) return [];
  if (isFinal(state.status))
    return stateError('invalid_state', state, `A ${state.status} intent action cannot become ${target}`);
  if (command.type === 'FailIntentAction')
    return [
      { type: 'IntentActionFailed', data: { action: moved(state, 'failed', command.now, command.status_reason) } },
    ];
  // Only an authenticated (or unauthenticated by design) action is authorized.
  if (state.status !== 'pending')
    return stateError('invalid_state', state, `A ${state.status} intent action cannot be completed`);
  return [{ type: 'IntentActionCompleted', data: { action: moved(state, 'completed', command.now) } }];
}

export function decideIntentAction(
  command: IntentActionCommand,
  state: IntentActionState,
): Decision<IntentActionEvent> {
  if (command.type === 'CreateIntentAction') return create(command, state);
  if (!isIntentAction(state)) return notFound('intent_action', command.intent_action_id);
  switch (command.type) {
    case 'AuthenticateIntentAction':
      return authenticate(command, state);
    case 'ExpireAuthentication':
      return expire(command, state);
    case 'StartAuthorization':
      return startAuthorization(command, state);
    case 'CompleteIntentAction':
    case 'FailIntentAction':
      return decideOutcome(command, state);
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const intentActionDecider: Decider<IntentActionCommand, IntentActionEvent, IntentActionState> = {
  initialState: initialIntentActionState,
  decide: decideIntentAction,
  evolve: evolveIntentAction,
};
