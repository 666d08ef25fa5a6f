import { type Decider, type Decision } from '../../shared';
import {
  balanceOf,
  evolveAccount,
  initialAccountState,
  openHold,
  type AccountEvent,
  type AccountState,
} from '../../accounts/account';
import { closeHold, placeHold } from '../../accounts/account/account.money';

/**
 * The card network's money on the account stream, beside the account's own decider (same events,
 * same fold): a hold per card transaction (hold_id = its id), then a capture or a release.
 * Every command is keyed by the transaction id, so repeating one changes nothing: a hold is placed
 * only while the card transaction is still pending (`origin_done`, read after the account was
 * folded), so once it is captured or released nothing re-opens it, and a capture finds no open hold.
 */
export type CardMoneyCommand =
  | {
      readonly type: 'PlaceCardHold';
      readonly account_id: string;
      readonly hold_id: string;
      readonly amount: number;
      readonly origin_done: boolean;
      readonly now: number;
    }
  | { readonly type: 'ReleaseCardHold'; readonly account_id: string; readonly hold_id: string; readonly now: number }
  /** Decisions §16: a partial approval holds only what was approved (same hold id: release, then hold again). */
  | {
      readonly type: 'ReduceCardHold';
      readonly account_id: string;
      readonly hold_id: string;
      readonly amount: number;
      readonly now: number;
    }
  | {
      readonly type: 'CaptureCardHold';
      readonly account_id: string;
      readonly hold_id: string;
      readonly amount: number;
      readonly now: number;
    };

/** The part of a partial capture that is debited: its own hold id, so the statement reads hold, release, hold, debit. */
export const captureHoldId = (holdId: string) => `${holdId}.capture`;

function capture(
  command: Extract<CardMoneyCommand, { type: 'CaptureCardHold' }>,
  state: Extract<AccountState, { status: 'open' }>,
): Decision<AccountEvent> {
  const held = openHold(state, command.hold_id)?.total;
  if (held === undefined) return [];
  const { account_id, hold_id, now } = command;
  if (command.amount >= held) return closeHold({ type: 'SettleHold', account_id, hold_id, now }, state);
  // Partial: release the authorization's hold, then hold and debit what was captured, in one append.
  const id = captureHoldId(hold_id);
  const { available, current } = balanceOf(state);
  const afterRelease = { available: available + held, current };
  const afterHold = { available: afterRelease.available - command.amount, current };
  return [
    { type: 'HoldReleased', data: { account_id, hold_id, total: held, balance_after: afterRelease, released: now } },
    {
      type: 'FundsHeld',
      data: { account_id, hold_id: id, amount: command.amount, fee: 0, balance_after: afterHold, held: now },
    },
    {
      type: 'HoldSettled',
      data: {
        account_id,
        hold_id: id,
        total: command.amount,
        balance_after: { available: afterHold.available, current: current - command.amount },
        settled: now,
      },
    },
  ];
}

function reduce(
  command: Extract<CardMoneyCommand, { type: 'ReduceCardHold' }>,
  state: Extract<AccountState, { status: 'open' }>,
): Decision<AccountEvent> {
  const held = openHold(state, command.hold_id)?.total;
  // Reduced already (or closed): a repeat changes nothing.
  if (held === undefined || command.amount >= held) return [];
  const { account_id, hold_id, now } = command;
  const { available, current } = balanceOf(state);
  return [
    {
      type: 'HoldReleased',
      data: {
        account_id,
        hold_id,
        total: held,
        balance_after: { available: available + held, current },
        released: now,
      },
    },
    {
      type: 'FundsHeld',
      data: {
        account_id,
        hold_id,
        amount: command.amount,
        fee: 0,
        balance_after: { available: available + held - command.amount, current },
        held: now,
      },
    },
  ];
}

export function decideCardMoney(command: CardMoneyCommand, state: AccountState): Decision<AccountEvent> {
  if (state.status !== 'open') return [];
  switch (command.type) {
    case 'PlaceCardHold':
      return placeHold({ ...command, type: 'PlaceHold', fee: 0 }, state);
    case 'ReleaseCardHold':
      return closeHold({ ...command, type: 'ReleaseHold' }, state);
    case 'ReduceCardHold':
      return reduce(command, state);
    case 'CaptureCardHold':
      return capture(command, state);
  }
}

export const accountCardMoneyDecider: Decider<CardMoneyCommand, AccountEvent, AccountState> = {
  initialState: initialAccountState,
  decide: decideCardMoney,
  evolve: evolveAccount,
};
