import type { IntentActionEvent, IntentActionRecord } from './intent-action.events';

export interface ExistingIntentAction {
  readonly status: IntentActionRecord['status'];
  readonly action: IntentActionRecord;
  readonly acquirer_token: string | null;
  readonly authentication_expires: number | null;
  /**
   * The last claim of the acquirer call, absent until one is made (absent, not null, so logs
   * written before claims fold to the same state).
   */
  readonly authorization?: AuthorizationClaim;
}

export interface AuthorizationClaim {
  readonly idempotency_key: string;
  readonly started: number;
}

export type IntentActionState = { readonly status: 'none' } | ExistingIntentAction;

export const initialIntentActionState: IntentActionState = { status: 'none' };

export const isIntentAction = (state: IntentActionState): state is ExistingIntentAction => state.status !== 'none';

export const isFinal = (status: IntentActionRecord['status']) => status === 'completed' || status === 'failed';

export function evolveIntentAction(state: IntentActionState, event: IntentActionEvent): IntentActionState {
  if (event.type === 'IntentActionCreated') {
    const { action, acquirer_token, authentication_expires } = event.data;
    return { status: action.status, action, acquirer_token, authentication_expires };
  }
  if (!isIntentAction(state)) return state;
  if (event.type === 'IntentActionAuthorizationStarted') {
    const { idempotency_key, started } = event.data;
    return { ...state, authorization: { idempotency_key, started } };
  }
  return { ...state, status: event.data.action.status, action: event.data.action };
}
