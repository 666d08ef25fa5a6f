import { domainError, rule, type DomainError } from '@app/domain';
import { accountDecider, balanceOf, type OpenAccountState } from '@app/domain/accounts';
import {
  STABLECOIN_CURRENCIES,
  transferFee,
  type FeeSchedule,
  type PaymentType,
  type TransferIntent,
} from '@app/domain/transfers';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import {
  clockOf,
  DomainException,
  loadAggregate,
  systemActor,
  type Actor,
  type CommandContext,
} from '../../command-handling';
import { findPaymentDetail } from '../../counterparties/payment-detail-index';
import { accountStream, isAccountId } from '../../accounts/streams';
import type { TransferablePaymentDetail } from '../payment-detail-lookup';
import { newTransferId } from '../streams';
import type { CreateTransferInput } from './create-transfer.command';

/** Every check that can refuse runs here, on folded streams, before anything is written (the source account's: create-transfer.handler.ts). */
export async function transferIntent(
  store: EventStore,
  fees: FeeSchedule,
  context: CommandContext,
  account: OpenAccountState,
  input: CreateTransferInput,
): Promise<TransferIntent> {
  const detail = await findPaymentDetail(store, context.actor, input.payment_detail_id);
  if (!detail) throw paymentDetailNotFound(input.payment_detail_id);
  checkRoute(account, input.payment_type, detail);
  const destination =
    input.payment_type === 'book-transfer' ? await bookDestination(store, context.actor, account, detail) : null;
  const fee = transferFee(fees, input.payment_type, input.amount);
  checkFunds(account, input.amount, fee);
  return {
    id: newTransferId(account.id, input.unique_reference),
    account_id: account.id,
    entity_id: account.entity_id,
    counterparty_id: detail.counterparty_id,
    payment_detail_id: detail.id,
    currency: account.currency,
    amount: input.amount,
    fee,
    payment_type: input.payment_type,
    description: input.description,
    unique_reference: input.unique_reference,
    metadata: input.metadata,
    created: clockOf(store).now(),
    destination_account_id: destination?.id ?? null,
    ...(destination && { destination_revision: destination.revision }),
  };
}

const fail = (error: DomainError): never => {
  throw new DomainException(error);
};

/** Routing rules between the account, the payment type and the payment detail (decisions §6). */
function checkRoute(account: OpenAccountState, paymentType: PaymentType, detail: TransferablePaymentDetail): void {
  if (detail.payment_method !== paymentType) {
    fail(
      rule(
        'payment_method_mismatch',
        `Payment detail ${detail.id} is for ${detail.payment_method}, not ${paymentType}`,
        [{ field: 'payment_type', message: `must be ${detail.payment_method} for this payment detail` }],
      ),
    );
  }
  if (detail.entity_id !== account.entity_id) {
    fail(
      rule('entity_mismatch', `Payment detail ${detail.id} belongs to another entity than account ${account.id}`, [
        { field: 'payment_detail_id', message: "must be a payment detail of the account's entity" },
      ]),
    );
  }
  const stablecoin = STABLECOIN_CURRENCIES.includes(account.currency);
  if (paymentType === 'stablecoin-transfer' && !stablecoin) {
    fail(
      rule(
        'currency_mismatch',
        `Stablecoin transfers need a USC or UST account; ${account.id} holds ${account.currency}`,
        [{ field: 'account_id', message: 'must hold USC or UST' }],
      ),
    );
  }
  if ((paymentType === 'bank-transfer' || paymentType === 'momo-transfer') && stablecoin) {
    fail(
      rule('currency_mismatch', `A ${account.currency} account pays out by stablecoin-transfer or book-transfer`, [
        { field: 'payment_type', message: `not available for ${account.currency}` },
      ]),
    );
  }
  if (detail.currency !== account.currency) {
    fail(
      rule(
        'currency_mismatch',
        `Account ${account.id} holds ${account.currency}; payment detail ${detail.id} takes ${detail.currency}`,
        [{ field: 'payment_detail_id', message: `must take ${account.currency}` }],
      ),
    );
  }
  if (detail.counterparty_status !== 'active') {
    fail(
      rule('counterparty_inactive', `Counterparty ${detail.counterparty_id} is inactive and cannot receive transfers`, [
        { field: 'payment_detail_id', message: 'the counterparty is inactive' },
      ]),
    );
  }
}

/**
 * A book transfer's destination: an open account of the same organization (read as the
 * organization, since it may belong to another of its entities), currency and mode, not the source.
 */
async function bookDestination(
  store: EventStore,
  actor: Actor,
  source: OpenAccountState,
  detail: TransferablePaymentDetail,
): Promise<{ id: string; revision: number }> {
  const id = detail.book_account_id;
  const refuse = (message: string) =>
    fail(rule('invalid_destination_account', message, [{ field: 'payment_detail_id', message }]));
  if (!id || !isAccountId(id)) return refuse('the payment detail names no account');
  const loaded = await loadAggregate(store, accountStream(id), accountDecider, {
    actor: systemActor(actor.organizationId, 'transfers', actor.mode),
  });
  if (!loaded || loaded.state.status !== 'open') return refuse(`account ${id} does not exist in this organization`);
  if (id === source.id) return refuse('a book transfer cannot pay the account it is drawn from');
  if (loaded.state.currency !== source.currency) {
    fail(
      rule('currency_mismatch', `The destination holds ${loaded.state.currency}, the source ${source.currency}`, [
        { field: 'payment_detail_id', message: `must pay into a ${source.currency} account` },
      ]),
    );
  }
  // Sandbox money never enters a live balance, nor the other way round.
  if (loaded.state.mode !== source.mode)
    return refuse(`the destination is a ${loaded.state.mode} account, the source ${source.mode}`);
  return { id, revision: loaded.revision };
}

/** Checked before anything is written, so the usual refusal records nothing; the hold re-checks atomically. */
function checkFunds(account: OpenAccountState, amount: number, fee: number): void {
  const { available } = balanceOf(account);
  if (amount + fee > available)
    fail(
      rule(
        'insufficient_funds',
        `Available balance ${available} is below ${amount + fee} (amount ${amount} + fee ${fee})`,
      ),
    );
}

const paymentDetailNotFound = (id: string) =>
  new DomainException(domainError('not_found', 'payment_detail_not_found', `No payment detail with id ${id}`));
