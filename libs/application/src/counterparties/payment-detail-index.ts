import { counterpartyDecider, paymentDetailIndexDecider } from '@app/domain';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { forbidden, handleCommand, loadAggregate, type Actor, type CommandContext } from '../command-handling';
import type { TransferablePaymentDetail } from '../transfers/payment-detail-lookup';
import { counterpartyStream, isPaymentDetailId, paymentDetailIndexStream } from './streams';

const orgOnly = (actor: Actor): Actor => ({ ...actor, entityId: undefined });

/** Written right after the detail is added; the backfill process manager repeats it after a crash. */
export async function indexPaymentDetail(
  store: EventStore,
  context: CommandContext,
  paymentDetailId: string,
  counterpartyId: string,
): Promise<void> {
  const command = {
    type: 'IndexPaymentDetail' as const,
    payment_detail_id: paymentDetailId,
    counterparty_id: counterpartyId,
  };
  await handleCommand(
    store,
    paymentDetailIndexStream(paymentDetailId),
    paymentDetailIndexDecider,
    command,
    { ...context, actor: orgOnly(context.actor) },
    { entityId: null },
  );
}

/**
 * A payment detail as a payout must judge it, folded from the log: the index stream names the
 * counterparty, whose stream gives its current status and owner (a deactivation or reassignment
 * a moment ago counts). `null`: no such detail in the caller's organization; 403 for an entity
 * token asking for another entity's detail.
 */
export async function findPaymentDetail(
  store: EventStore,
  actor: Actor,
  paymentDetailId: string,
): Promise<TransferablePaymentDetail | null> {
  if (!isPaymentDetailId(paymentDetailId)) return null;
  const index = await loadAggregate(store, paymentDetailIndexStream(paymentDetailId), paymentDetailIndexDecider, {
    actor: orgOnly(actor),
  });
  if (!index || index.state.status !== 'indexed') return null;
  const counterparty = await loadAggregate(
    store,
    counterpartyStream(index.state.counterparty_id),
    counterpartyDecider,
    { actor: orgOnly(actor) },
  );
  if (!counterparty || counterparty.state.status === 'none') return null;
  const state = counterparty.state;
  const detail = state.payment_details.find((d) => d.payment_detail_id === paymentDetailId);
  if (!detail) return null;
  if (actor.entityId && actor.entityId !== state.entity_id) throw forbidden();
  return {
    id: paymentDetailId,
    payment_method: detail.payment_method,
    currency: detail.currency,
    country: detail.country,
    counterparty_id: state.id,
    counterparty_status: state.status,
    entity_id: state.entity_id,
    organization_id: actor.organizationId,
    book_account_id: detail.payment_method === 'book-transfer' ? detail.book.account_id : null,
  };
}
