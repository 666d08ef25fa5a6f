import type { ReadDocument } from '@app/platform/read-store/read-store.port';
import { accountBalance, type FoldedAccount } from './log-pass';

export interface LedgerDifference {
  readonly resource: string;
  readonly message: string;
}

/** Per organization and currency: what came in, went out and stayed (minor units). */
export interface LedgerTotals {
  funded: number;
  collected: number;
  paidOut: number;
  fees: number;
  refunds: number;
  balances: number;
  openHolds: number;
}

interface Entry extends ReadDocument {
  readonly account_id: string;
  readonly type: 'credit' | 'hold' | 'debit' | 'release' | 'reversal';
  readonly amount: number;
  readonly fee: number | null;
  readonly transfer_id: string | null;
  readonly transaction_id: string | null;
  readonly payment_intent_id?: string | null;
}

/**
 * The ledger, from the rebuilt statement and the accounts folded by the domain:
 * 1. each account's balance (current and available) is the sum of its statement;
 * 2. per organization and currency, funded + collected − paid out − fees − refunds
 *    = Σ available balances + open holds (= Σ current balances). Fees are statement lines' `fee`.
 */
export function checkLedger(accounts: Map<string, FoldedAccount>, statement: Iterable<ReadDocument>): { differences: LedgerDifference[]; totals: Map<string, LedgerTotals> } {
  const byAccount = new Map<string, Entry[]>();
  for (const entry of statement as Iterable<Entry>) (byAccount.get(entry.account_id) ?? byAccount.set(entry.account_id, []).get(entry.account_id)!).push(entry);
  const differences: LedgerDifference[] = [];
  const totals = new Map<string, LedgerTotals>();
  for (const [id, { organizationId, state }] of accounts) {
    const balance = accountBalance(state);
    if (!balance || state.status === 'none') continue;
    const entries = (byAccount.get(id) ?? []).sort((a, b) => (a.id < b.id ? -1 : 1));
    const summed = sumStatement(entries, totalsFor(totals, `${organizationId} ${state.currency}`));
    if (summed.current !== balance.current || summed.available !== balance.available) {
      differences.push({ resource: `account ${id}`, message: `balance ${balance.available}/${balance.current} but statement sums to ${summed.available}/${summed.current} (available/current)` });
    }
  }
  for (const [key, t] of totals) {
    const flows = t.funded + t.collected - t.paidOut - t.fees - t.refunds;
    if (flows !== t.balances + t.openHolds) differences.push({ resource: `organization ${key}`, message: `funded + collected − paid out − fees − refunds = ${flows}, balances + open holds = ${t.balances + t.openHolds}` });
  }
  return { differences, totals };
}

function totalsFor(totals: Map<string, LedgerTotals>, key: string): LedgerTotals {
  let t = totals.get(key);
  if (!t) totals.set(key, (t = { funded: 0, collected: 0, paidOut: 0, fees: 0, refunds: 0, balances: 0, openHolds: 0 }));
  return t;
}

/** Replays one account's statement, adding its flows to the organization's totals. */
function sumStatement(entries: Entry[], t: LedgerTotals): { available: number; current: number } {
  let [available, current] = [0, 0];
  const holdFees = new Map<string, number>();
  for (const e of entries) {
    const fee = e.fee ?? 0;
    if (e.type === 'credit') {
      [available, current] = [available + e.amount, current + e.amount];
      if (e.payment_intent_id) [t.collected, t.fees] = [t.collected + e.amount + fee, t.fees + fee];
      else if (e.transfer_id) t.paidOut -= e.amount; // a book transfer received: money that stayed in
      else t.funded += e.amount;
    } else if (e.type === 'hold') {
      available -= e.amount;
      holdFees.set(e.transfer_id ?? '', fee);
    } else if (e.type === 'release') available += e.amount;
    else if (e.type === 'debit' && e.payment_intent_id) {
      [available, current] = [available - e.amount, current - e.amount];
      t.refunds += e.amount;
    } else if (e.type === 'debit') {
      current -= e.amount;
      const holdFee = holdFees.get(e.transfer_id ?? '') ?? 0;
      [t.paidOut, t.fees] = [t.paidOut + e.amount - holdFee, t.fees + holdFee];
    } else if (e.type === 'reversal') {
      [available, current] = [available + e.amount, current + e.amount];
      const holdFee = holdFees.get(e.transfer_id ?? '') ?? 0;
      [t.paidOut, t.fees] = [t.paidOut - (e.amount - holdFee), t.fees - holdFee];
    }
  }
  t.balances += available;
  t.openHolds += current - available;
  return { available, current };
}
