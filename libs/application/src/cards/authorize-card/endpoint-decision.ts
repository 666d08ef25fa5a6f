import {
  parseEndpointAnswer,
  cardDecider,
  type AuthorizationDecision,
  type CardTransactionRecord,
  type IssuedCardState,
  accountCardMoneyDecider,
} from '@app/domain/cards';
import type { ExistingWebhook } from '@app/domain';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { handleCommand, type CommandContext } from '../../command-handling';
import { accountStream } from '../../accounts/streams';
import { decidedTransaction, finishedSince } from '../card-money';
import type { Clock } from '@app/platform/clock';
import type { AuthorizationEndpointCaller, EndpointReply } from '../card-ports';
import { cardStream } from '../streams';

interface Verdict {
  readonly approved: boolean;
  readonly amount: number | null;
  readonly authorization: AuthorizationDecision;
}

/** The endpoint's answer when valid; else the card's fallback (decisions §16), recorded as such. */
export function verdictOf(
  reply: EndpointReply | null,
  transaction: CardTransactionRecord,
  card: IssuedCardState,
): Verdict {
  const ok = reply && reply.status !== null && reply.status >= 200 && reply.status < 300;
  const answer = ok && reply.body !== null ? parseEndpointAnswer(reply.body, transaction.amount) : null;
  const seen = { endpoint_status: reply?.status ?? null, latency_ms: reply?.latency_ms ?? null };
  if (answer)
    return {
      approved: answer.approved,
      amount: answer.amount,
      authorization: { source: 'endpoint', ...seen, reason: answer.reason },
    };
  const why = !reply
    ? 'asked_before'
    : reply.limited
      ? 'concurrency_limit'
      : reply.status === null
        ? 'no_answer'
        : ok
          ? 'invalid_answer'
          : `http_${reply.status}`;
  return fallbackVerdict(card, why, seen);
}

/** The card's `authorization_fallback` decides, recorded with why. */
export function fallbackVerdict(
  card: IssuedCardState,
  reason: string,
  seen = { endpoint_status: null as number | null, latency_ms: null as number | null },
): Verdict {
  return {
    approved: (card.card.authorization_fallback ?? 'decline') === 'approve',
    amount: null,
    authorization: { source: 'fallback', ...seen, reason },
  };
}

/**
 * Decisions §16, once the platform's own checks passed (the card's decision and the account's
 * hold): the asking is recorded on the card stream first, so a request that dies while waiting is
 * never asked again (a later run finds it asked and takes the fallback); then the one outcome is
 * recorded (the first outcome wins, appended at the revision it was decided on), then the account
 * follows it: a decline releases the hold, a partial approval holds only what was approved.
 */
export async function decideWithEndpoint(
  deps: { store: EventStore; caller: AuthorizationEndpointCaller; clock: Clock },
  context: CommandContext,
  card: IssuedCardState,
  webhook: ExistingWebhook,
  held: CardTransactionRecord,
  now: number,
): Promise<CardTransactionRecord> {
  const { store, caller, clock } = deps;
  const request = { type: 'RequestCardAuthorization' as const, card_id: held.card_id, transaction_id: held.id, now };
  const marked = await handleCommand(store, cardStream(held.card_id), cardDecider, request, context);
  const asking = marked.newEvents.length > 0;
  const reply = asking
    ? await caller.ask({
        webhook,
        organization_id: context.actor.organizationId,
        mode: context.actor.mode,
        transaction: held,
      })
    : null;
  const verdict = verdictOf(reply, held, card);
  const decide = {
    type: 'DecideCardAuthorization' as const,
    card_id: held.card_id,
    transaction_id: held.id,
    ...verdict,
    now: clock.now(),
  };
  // Nothing recorded and no longer pending: another outcome came first (the recovery after this request
  // was taken for dead); that one is the answer. A rare path, so reading the card's stream from its start is fine.
  const decided =
    decidedTransaction(await handleCommand(store, cardStream(held.card_id), cardDecider, decide, context), held.id) ??
    (await finishedSince(store, held.card_id, held.id, 0));
  const base = { account_id: decided.account_id, hold_id: decided.id, now: decide.now };
  const money =
    decided.status === 'declined'
      ? { ...base, type: 'ReleaseCardHold' as const }
      : { ...base, type: 'ReduceCardHold' as const, amount: decided.account_amount };
  await handleCommand(store, accountStream(decided.account_id), accountCardMoneyDecider, money, context);
  return decided;
}
