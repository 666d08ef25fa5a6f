import { notFound } from '@app/domain';
import {
  intentActionDecider,
  isIntentAction,
  isPaymentIntent,
  paymentIntentDecider,
  type ExistingIntentAction,
  type ExistingPaymentIntent,
  type IntentActionRecord,
} from '@app/domain/collections';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, loadAggregate, type Actor } from '../command-handling';
import { intentActionStream, isIntentActionId, isPaymentIntentId, paymentIntentStream } from './streams';

/** Folds the intent (read-your-writes, tenancy enforced); absent or not visible: 404. */
export async function loadIntent(store: EventStore, actor: Actor, id: string): Promise<ExistingPaymentIntent> {
  const loaded = isPaymentIntentId(id)
    ? await loadAggregate(store, paymentIntentStream(id), paymentIntentDecider, { actor })
    : null;
  if (!loaded || !isPaymentIntent(loaded.state)) throw new DomainException(notFound('payment_intent', id));
  return loaded.state;
}

export async function loadAction(store: EventStore, actor: Actor, id: string): Promise<ExistingIntentAction> {
  const loaded = isIntentActionId(id)
    ? await loadAggregate(store, intentActionStream(id), intentActionDecider, { actor })
    : null;
  if (!loaded || !isIntentAction(loaded.state)) throw new DomainException(notFound('intent_action', id));
  return loaded.state;
}

/** The action as the API shows it: `refunded_amount` is what its intent has refunded so far. */
export type IntentActionView = IntentActionRecord & { readonly refunded_amount: number };

export async function viewOf(store: EventStore, actor: Actor, action: IntentActionRecord): Promise<IntentActionView> {
  const intent = await loadIntent(store, actor, action.payment_intent_id);
  return { ...action, refunded_amount: intent.intent.intent_action_id === action.id ? intent.refunded : 0 };
}
