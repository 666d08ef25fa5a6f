import { accountDecider, balanceOf, type AccountEvent, type OpenAccountState } from '@app/domain/accounts';
import { accountView, presentAccount, presentAccountDetails, presentCredit } from '@app/read-models/accounts/account.presenter';
import type { PublicEventRule, PublicEventTable, StateAt } from './public-event';

const accountAt = async (stateAt: StateAt) => (await stateAt(accountDecider)) as OpenAccountState;

const account = async (stateAt: StateAt) => {
  const state = await accountAt(stateAt);
  return presentAccount(accountView(state, balanceOf(state)));
};

const balanceChange: PublicEventRule = { events: ['accounts.updated'], data: (_n, _r, stateAt) => account(stateAt) };

/** docs/decisions/accounts.md: opening, coordinates, sandbox credits and every balance change. */
export const ACCOUNT_PUBLIC_EVENTS: PublicEventTable = {
  AccountOpened: { events: ['accounts.created'], data: (_n, _r, stateAt) => account(stateAt) },
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
      if (name === 'accounts.updated') return account(stateAt);
      const d = (recorded as unknown as Extract<AccountEvent, { type: 'AccountFunded' }>).data;
      return presentCredit({ transaction_id: d.transaction_id, account_id: d.account_id, amount: d.amount, currency: d.currency, funded: d.funded });
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
