import { snapshotDecider } from '@app/application/command-handling/snapshots/fold-snapshots';
import {
  evolveAccount,
  type AccountEvent,
  type AccountState,
  type Balance,
  type OpenAccountState,
} from '@app/domain/accounts';
import { emptyMap } from '@app/domain/shared/persistent-map';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { presentAccount, presentAccountDetails, presentCredit } from '@app/read-models/accounts/account.presenter';
import type { PublicEventRule, PublicEventTable, StateAt } from './public-event';

/** The account without its open holds: what its public events show of it besides the balance. */
type PublicAccount = Omit<OpenAccountState, 'held' | 'holds' | 'references'>;
type PublicAccountState = { readonly status: 'none' } | PublicAccount;

/**
 * The account folded as its public events need it: the account's own evolve, its open holds left
 * out, the balance taken from the event (every money event carries `balance_after`, as the
 * accounts list reads it). A reader that keeps one fold per account (an event stream's feed, the
 * router) then keeps a few hundred bytes whatever is pending: with the holds, a stream over a
 * history with thousands pending could not keep ten accounts in its budget and refolded one on
 * almost every event (issue 26). Snapshotted like the account, so a cold fold is bounded too.
 */
export const publicAccountDecider = {
  initialState: { status: 'none' } as PublicAccountState,
  evolve(state: PublicAccountState, event: AccountEvent): PublicAccountState {
    const whole: AccountState =
      state.status === 'open' ? { ...state, held: 0, holds: emptyMap(), references: emptyMap() } : state;
    const next = evolveAccount(whole, event);
    if (next.status !== 'open') return next;
    const { held: _held, holds: _holds, references: _references, ...rest } = next;
    return rest;
  },
};
snapshotDecider(publicAccountDecider.evolve, 'public-account:1');

const accountAt = async (stateAt: StateAt) => (await stateAt(publicAccountDecider)) as PublicAccount;

/** The balance after the event: its own `balance_after`, or none moved yet (an opening). */
const balanceAfter = (recorded: RecordedEvent): Balance =>
  (recorded.data as { balance_after?: Balance }).balance_after ?? { available: 0, current: 0 };

const account = async (recorded: RecordedEvent, stateAt: StateAt) =>
  presentAccount({ ...(await accountAt(stateAt)), balance: balanceAfter(recorded) });

const balanceChange: PublicEventRule = {
  events: ['accounts.updated'],
  data: (_n, recorded, stateAt) => account(recorded, stateAt),
};

/** docs/decisions/accounts.md: opening, coordinates, sandbox credits and every balance change. */
export const ACCOUNT_PUBLIC_EVENTS: PublicEventTable = {
  AccountOpened: { events: ['accounts.created'], data: (_n, recorded, stateAt) => account(recorded, stateAt) },
  AccountDetailsIssued: {
    events: ['account_details.created'],
    data: async (_n, recorded, stateAt) => {
      const { rail } = (recorded as unknown as Extract<AccountEvent, { type: 'AccountDetailsIssued' }>).data;
      const state = await accountAt(stateAt);
      return presentAccountDetails(state.details[rail]!);
    },
  },
  AccountFunded: {
    // The money arrived (the transaction), then the balance it changed (the account).
    events: ['inflows.completed', 'accounts.updated'],
    data: async (name, recorded, stateAt) => {
      if (name === 'accounts.updated') return account(recorded, stateAt);
      const d = (recorded as unknown as Extract<AccountEvent, { type: 'AccountFunded' }>).data;
      return presentCredit({
        transaction_id: d.transaction_id,
        account_id: d.account_id,
        amount: d.amount,
        currency: d.currency,
        funded: d.funded,
      });
    },
  },
  FundsHeld: balanceChange,
  HoldReleased: balanceChange,
  HoldSettled: balanceChange,
  HoldReversed: balanceChange,
  BookTransferReceived: balanceChange,
  CollectionCredited: balanceChange,
  CollectionRefunded: balanceChange,
};
