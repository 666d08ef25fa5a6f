import type { AccountEvent, Balance } from '@app/domain/accounts';
import { modeOf, type Mode } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { Projection } from '@app/platform/read-store/projection';
import type { StatementEntryBody } from './statement-entry.schema';

export type StatementEntryType = 'credit' | 'hold' | 'debit' | 'release' | 'reversal';

export interface StatementEntry {
  [field: string]: unknown;
  readonly id: string;
  readonly organization_id: string;
  readonly mode: Mode;
  readonly account_id: string;
  readonly type: StatementEntryType;
  /** What moved, in minor units: for holds, debits, releases and reversals the transfer's amount + fee. */
  readonly amount: number;
  readonly fee: number | null;
  readonly transfer_id: string | null;
  readonly transaction_id: string | null;
  /** Collections (decisions §7): the payment intent credited or refunded. */
  readonly payment_intent_id?: string | null;
  readonly balance_after: Balance;
  readonly created: number;
  /** The event's log position and id (absent on documents of version 1): a statement proves its last line (decisions §17). */
  readonly position?: number;
  readonly event_id?: string;
  /** The UTC month (YYYY-MM) of the event's `occurred_at`, the time `as_of` reads: a month's statement is one index range. */
  readonly month?: string;
}

/**
 * Entry ids sort in stream order within an account (the read store orders by id): the account's
 * ULID, then the event's revision in the account stream, zero-padded.
 */
export const statementEntryId = (accountId: string, revision: number) =>
  `ste_${accountId.slice(4)}${String(revision).padStart(10, '0')}`;
export const STATEMENT_CURSOR = /^ste_[0-9A-HJKMNP-TV-Z]{26}\d{10}$/;

type Money = Exclude<AccountEvent, { type: 'AccountOpened' | 'AccountDetailsIssued' }>;

type EntryFields = Pick<
  StatementEntry,
  'type' | 'amount' | 'fee' | 'transfer_id' | 'transaction_id' | 'payment_intent_id' | 'created'
>;

function entry(event: Money): EntryFields {
  const none = { fee: null, transfer_id: null, transaction_id: null };
  switch (event.type) {
    case 'AccountFunded':
      return {
        ...none,
        type: 'credit',
        amount: event.data.amount,
        transaction_id: event.data.transaction_id,
        created: event.data.funded,
      };
    case 'BookTransferReceived':
      return {
        ...none,
        type: 'credit',
        amount: event.data.amount,
        transfer_id: event.data.transfer_id,
        created: event.data.received,
      };
    case 'FundsHeld':
      return {
        ...none,
        type: 'hold',
        amount: event.data.amount + event.data.fee,
        fee: event.data.fee,
        transfer_id: event.data.hold_id,
        created: event.data.held,
      };
    case 'HoldSettled':
      return {
        ...none,
        type: 'debit',
        amount: event.data.total,
        transfer_id: event.data.hold_id,
        created: event.data.settled,
      };
    case 'HoldReleased':
      return {
        ...none,
        type: 'release',
        amount: event.data.total,
        transfer_id: event.data.hold_id,
        created: event.data.released,
      };
    case 'HoldReversed':
      return {
        ...none,
        type: 'reversal',
        amount: event.data.total,
        transfer_id: event.data.hold_id,
        created: event.data.reversed,
      };
    case 'CollectionCredited':
      return {
        ...none,
        type: 'credit',
        amount: event.data.net,
        fee: event.data.fee,
        payment_intent_id: event.data.payment_intent_id,
        created: event.data.credited,
      };
    case 'CollectionRefunded':
      return {
        ...none,
        type: 'debit',
        amount: event.data.amount,
        payment_intent_id: event.data.payment_intent_id,
        created: event.data.refunded,
      };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/** GET /accounts/{id}/transactions: one entry per money event of the account stream, with the balance after it. */
export const statementProjection: Projection<StatementEntry> = {
  name: 'account-statement',
  collection: 'account_transactions',
  // The list's filter: its account, in the caller's mode (see read-index.ts); a monthly statement's adds the month.
  indexes: [
    ['account_id', 'mode'],
    ['account_id', 'mode', 'month'],
  ],
  // 1: documents record their mode; 2: their position, event id and month (statements). Older read models are rebuilt once.
  version: 2,
  handles: [
    'AccountFunded',
    'BookTransferReceived',
    'FundsHeld',
    'HoldSettled',
    'HoldReleased',
    'HoldReversed',
    'CollectionCredited',
    'CollectionRefunded',
  ],
  documentIds: (event) => [statementEntryId(String(event.data.account_id), event.revision)],
  evolve(current, recorded: RecordedEvent) {
    if (current) return current;
    const event = recorded as unknown as Money;
    return {
      id: statementEntryId(event.data.account_id, recorded.revision),
      organization_id: recorded.metadata.organization_id,
      mode: modeOf(recorded.metadata),
      account_id: event.data.account_id,
      balance_after: event.data.balance_after,
      ...entry(event),
      position: recorded.position,
      event_id: recorded.metadata.event_id,
      month: new Date(recorded.metadata.occurred_at).toISOString().slice(0, 7),
    };
  },
};

/** Returns its schema's type (statement-entry.schema.ts). */
export const presentStatementEntry = (e: StatementEntry): StatementEntryBody => ({
  id: e.id,
  object: 'account_transaction',
  account_id: e.account_id,
  type: e.type,
  amount: e.amount,
  fee: e.fee,
  transfer_id: e.transfer_id,
  transaction_id: e.transaction_id,
  payment_intent_id: e.payment_intent_id ?? null,
  balance_after: { available: e.balance_after.available, current: e.balance_after.current },
  created: e.created,
});
