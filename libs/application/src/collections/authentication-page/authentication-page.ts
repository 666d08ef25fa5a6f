import { intentActionDecider, isIntentAction, type IntentActionRecord } from '@app/domain/collections';
import { modeOf } from '@app/platform/event-store/event-mode';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { foldStream, systemActor, type CommandContext } from '../../command-handling';
import { intentActionStream, isIntentActionId } from '../streams';

/** What the 3-D Secure page shows: the form, or why there is nothing left to do. */
export type PageState = 'open' | 'used' | 'expired' | 'unavailable' | 'not_found';

export interface AuthenticationPage {
  readonly state: PageState;
  readonly action: IntentActionRecord | null;
}

export interface PageSubject extends AuthenticationPage {
  /** The page acts as the simulated issuer, in the action's own organization and mode. */
  readonly context: CommandContext | null;
}

/**
 * The page is opened by the customer's browser, which holds no API key: the action id (a ULID
 * with 80 random bits) is the capability, as a payment page link is.
 */
export async function pageSubject(store: EventStore, id: string, requestId: string, now: number): Promise<PageSubject> {
  if (!isIntentActionId(id)) return { state: 'not_found', action: null, context: null };
  const { state, owner } = await foldStream(store, intentActionStream(id), intentActionDecider);
  if (!owner || !isIntentAction(state)) return { state: 'not_found', action: null, context: null };
  const mode = modeOf(owner);
  const actor = systemActor(String(owner.organization_id), '3ds-page', mode);
  const context = { actor, correlationId: requestId, causationId: requestId };
  return { state: pageState(state.action, state.authentication_expires, mode, now), action: state.action, context };
}

function pageState(action: IntentActionRecord, expires: number | null, mode: string, now: number): PageState {
  if (mode !== 'sandbox') return 'unavailable';
  if (action.status !== 'pending_user_action')
    return action.status_reason === 'authentication_expired' ? 'expired' : 'used';
  return expires !== null && now > expires ? 'expired' : 'open';
}

/** `return_url` with the decided query (decisions §7). */
export function returnUrlFor(action: IntentActionRecord): string | null {
  if (!action.return_url || !URL.canParse(action.return_url)) return null;
  const url = new URL(action.return_url);
  url.searchParams.set('payment_intent_id', action.payment_intent_id);
  url.searchParams.set('intent_action_id', action.id);
  url.searchParams.set('status', action.status);
  return url.toString();
}
