import { invalid, rule, type Decision, type DomainError } from '../../shared';
import { isValidAmount } from '../currency';
import { assetTypeOf } from '../rails';
import type { AccountEvent } from './account.events';
import { balanceOf, type OpenAccountState } from './account';

/**
 * The rails money arrives on (decisions §11): the payout rails, named as a transfer's
 * `payment_type`. Not `book-transfer`: money between the organization's own accounts is a book
 * transfer (POST /transfer), decided by the sending account, never an operator's record. Not the
 * account-details rails (`ach`, `sepa`…): those name coordinates, these the ledger's clearing
 * accounts (`clearing:<rail>:<currency>`, decisions §12).
 */
export const INFLOW_RAILS = ['bank-transfer', 'momo-transfer', 'stablecoin-transfer'] as const;
export type InflowRail = (typeof INFLOW_RAILS)[number];
export const isInflowRail = (value: unknown): value is InflowRail =>
  typeof value === 'string' && (INFLOW_RAILS as readonly string[]).includes(value);

/** The sender's reference: unique per account; as a transfer's `unique_reference`. */
export const INFLOW_REFERENCE_MAX = 64;
/** Who sent it, as the rail reported it: ISO 20022's name length (Max140Text). */
export const INFLOW_SENDER_MAX = 140;

/** What an operator records: money received on a rail, with the transaction id drawn for it. */
export interface Inflow {
  readonly transaction_id: string;
  readonly account_id: string;
  readonly amount: number;
  readonly currency: string;
  readonly rail: string;
  readonly reference: string;
  readonly sender: string | null;
}

export type InflowCommand = {
  readonly type: 'RecordInflow';
  /**
   * An `AccountFunded` with this transaction id is already in the account's log after the
   * reservation was made, read by the caller after this state was folded: recording again is a
   * no-op. The state does not keep inflow ids (it would grow with history); the reservation
   * stream names the id, and the log since it says whether it landed.
   */
  readonly already_credited: boolean;
  readonly now: number;
} & Inflow;

/** Everything that refuses an inflow on this account, checkable before its reference is reserved. */
export function refuseInflow(state: OpenAccountState, inflow: Omit<Inflow, 'transaction_id'>): DomainError | null {
  if (!isValidAmount(inflow.amount)) return invalid('amount', 'amount must be a positive integer of minor units');
  if (!isInflowRail(inflow.rail)) return invalid('rail', `rail must be one of ${INFLOW_RAILS.join(', ')}`);
  if (inflow.reference.trim().length === 0 || inflow.reference.length > INFLOW_REFERENCE_MAX)
    return invalid('reference', `reference must be 1-${INFLOW_REFERENCE_MAX} characters`);
  if (inflow.sender !== null && (inflow.sender.trim().length === 0 || inflow.sender.length > INFLOW_SENDER_MAX))
    return invalid('sender', `sender must be 1-${INFLOW_SENDER_MAX} characters`);
  if (inflow.currency !== state.currency) {
    return rule('currency_mismatch', `The account holds ${state.currency}, not ${inflow.currency}`, [
      { field: 'currency', message: `must be ${state.currency}` },
    ]);
  }
  // As payouts: stablecoins move on stablecoin-transfer only, fiat on bank or mobile money.
  const crypto = assetTypeOf(state.currency) === 'crypto';
  if (crypto !== (inflow.rail === 'stablecoin-transfer')) {
    const fits = crypto ? 'stablecoin-transfer' : 'bank-transfer or momo-transfer';
    return rule('rail_not_supported', `A ${state.currency} account receives on ${fits}, not ${inflow.rail}`, [
      { field: 'rail', message: `not available for ${state.currency}` },
    ]);
  }
  if (state.current + inflow.amount > Number.MAX_SAFE_INTEGER)
    return rule('balance_limit_exceeded', 'The balance would exceed the largest representable amount');
  return null;
}

/** A settled credit from a rail, in any mode (live accounts have no other way in), once per transaction id. */
export function recordInflow(command: InflowCommand, state: OpenAccountState): Decision<AccountEvent> {
  if (command.already_credited) return [];
  const { account_id, transaction_id, amount, currency, rail, reference, sender, now } = command;
  const refused = refuseInflow(state, { account_id, amount, currency, rail, reference, sender });
  if (refused) return refused;
  const { available, current } = balanceOf(state);
  const balance_after = { available: available + amount, current: current + amount };
  return [
    {
      type: 'AccountFunded',
      data: {
        account_id,
        entity_id: state.entity_id,
        transaction_id,
        amount,
        currency,
        source: 'inflow',
        rail,
        reference,
        sender,
        balance_after,
        funded: now,
      },
    },
  ];
}
