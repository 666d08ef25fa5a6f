import fc from 'fast-check';
import { isDomainError } from '../shared';
import {
  accountDecider,
  balanceOf,
  evolveAccount,
  initialAccountState,
  type AccountCommand,
  type AccountEvent,
  type AccountState,
} from '../accounts';
import { accountCardMoneyDecider, type CardMoneyCommand } from '../cards/card-money/account-card-money';
import { customerBalance, unbalancedCurrency } from './ledger';
import { bookKey, bookOf, foldLedgerEvent, newLedgers, type Ledgers } from './ledger-fold';
import type { MoneyEvent } from './money-movements';

/**
 * Random sequences of every money command, through the account's real deciders, with retries
 * (the same key again), concurrent pairs (two commands decided on the same state, the second
 * appended only if the first wrote nothing, as the expected revision would enforce), failures,
 * partial captures, reversals and FX. After every step: each currency balances, no available
 * balance is below zero, each account's ledger balance equals its fold, and the books folded from
 * scratch equal the books folded step by step.
 */
const ACCOUNTS = { acc_usd1: 'USD', acc_usd2: 'USD', acc_eur: 'EUR' } as const;
type AccountId = keyof typeof ACCOUNTS;
const IDS = Object.keys(ACCOUNTS) as AccountId[];
const KEY = bookKey('org_1', 'sandbox');
const T = 1_700_000_000_000;

type Op =
  | { kind: 'fund'; account: number; amount: number }
  | {
      kind: 'payout';
      account: number;
      amount: number;
      fee: number;
      rail: 'bank-transfer' | 'momo-transfer' | 'book-transfer';
      to: number;
    }
  | { kind: 'finish'; pick: number; how: 'settle' | 'release' | 'reverse' }
  | { kind: 'card'; account: number; amount: number; fx: boolean }
  | { kind: 'card_close'; pick: number; fraction: number; reverse: boolean }
  | { kind: 'collect'; account: number; amount: number; feeBps: number }
  | { kind: 'refund'; pick: number; amount: number }
  | { kind: 'retry'; pick: number }
  | { kind: 'race'; pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('fund' as const),
      account: fc.nat(2),
      amount: fc.integer({ min: 1, max: 50_000 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('payout' as const),
      account: fc.nat(2),
      amount: fc.integer({ min: 1, max: 30_000 }),
      fee: fc.integer({ min: 0, max: 500 }),
      rail: fc.constantFrom('bank-transfer' as const, 'momo-transfer' as const, 'book-transfer' as const),
      to: fc.nat(2),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('finish' as const),
      pick: fc.nat(),
      how: fc.constantFrom('settle' as const, 'release' as const, 'reverse' as const),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('card' as const),
      account: fc.nat(2),
      amount: fc.integer({ min: 1, max: 20_000 }),
      fx: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('card_close' as const),
      pick: fc.nat(),
      fraction: fc.double({ min: 0.01, max: 1, noNaN: true }),
      reverse: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('collect' as const),
      account: fc.nat(2),
      amount: fc.integer({ min: 1, max: 40_000 }),
      feeBps: fc.integer({ min: 0, max: 500 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      pick: fc.nat(),
      amount: fc.integer({ min: 1, max: 40_000 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('retry' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('race' as const), pick: fc.nat() }) },
);

type Step = { account: AccountId; command: AccountCommand | CardMoneyCommand; card?: boolean };

class World {
  readonly log: MoneyEvent[] = [];
  readonly streams = new Map<AccountId, AccountEvent[]>();
  readonly ledgers: Ledgers = newLedgers();
  readonly steps: Step[] = [];
  readonly transfers: {
    id: string;
    account: AccountId;
    to: AccountId | null;
    amount: number;
    state: 'held' | 'settled' | 'released' | 'reversed';
  }[] = [];
  readonly cards: {
    id: string;
    account: AccountId;
    amount: number;
    accountAmount: number;
    currency: string;
    open: boolean;
  }[] = [];
  readonly intents: { id: string; account: AccountId; amount: number }[] = [];
  private n = 0;

  constructor() {
    for (const id of IDS) {
      this.streams.set(id, []);
      this.record(id, {
        type: 'AccountOpened',
        data: {
          account_id: id,
          entity_id: 'ent_1',
          mode: 'sandbox',
          type: 'checking',
          currency: ACCOUNTS[id],
          minor_units: 2,
          display_name: id,
          service_ban: 'x',
          opened: T,
        },
      });
    }
  }

  id = (prefix: string) => `${prefix}_${String(++this.n).padStart(4, '0')}`;
  state = (account: AccountId): AccountState => this.streams.get(account)!.reduce(evolveAccount, initialAccountState);

  /** A context event of another stream (a reservation, a card transaction, an intent action). */
  describe(event: unknown) {
    this.append(event as MoneyEvent);
  }

  record(account: AccountId, event: AccountEvent) {
    this.streams.get(account)!.push(event);
    this.append(event);
  }

  private append(event: MoneyEvent) {
    this.log.push(event);
    const fault = foldLedgerEvent(this.ledgers, KEY, event);
    if (fault) throw new Error(`ledger fault at ${event.type}: ${fault.transaction_id}: ${fault.message}`);
  }

  /** Decides on the account's current state and appends what it decided; a domain error writes nothing. */
  run(step: Step, state = this.state(step.account)): readonly AccountEvent[] {
    const command = readFacts(step.command, this.streams.get(step.account)!);
    const decision = step.card
      ? accountCardMoneyDecider.decide(command as CardMoneyCommand, state)
      : accountDecider.decide(command as AccountCommand, state);
    if (isDomainError(decision)) return [];
    for (const event of decision) this.record(step.account, event);
    this.steps.push(step);
    return decision;
  }
}

/** What a caller reads from the account's log after the fold, per attempt: a collection's credit and refunds. */
function readFacts(command: Step['command'], log: readonly AccountEvent[]): Step['command'] {
  if (command.type === 'CreditCollection')
    return {
      ...command,
      already_credited: log.some(
        (e) => e.type === 'CollectionCredited' && e.data.payment_intent_id === command.payment_intent_id,
      ),
    };
  if (command.type === 'RefundCollection')
    return {
      ...command,
      already_refunded: log.some((e) => e.type === 'CollectionRefunded' && e.data.refund_id === command.refund_id),
    };
  if (command.type === 'ReverseSettledHold')
    return {
      ...command,
      already_reversed: log.some((e) => e.type === 'HoldReversed' && e.data.hold_id === command.hold_id),
    };
  return command;
}

function apply(world: World, o: Op): void {
  const account = IDS[(o as { account?: number }).account ?? 0];
  const currency = ACCOUNTS[account];
  switch (o.kind) {
    case 'fund':
      world.run({
        account,
        command: {
          type: 'FundAccount',
          account_id: account,
          transaction_id: world.id('txn'),
          amount: o.amount,
          currency,
          now: T,
        },
      });
      return;
    case 'payout': {
      const id = world.id('trf');
      const to =
        o.rail === 'book-transfer' ? (IDS.filter((a) => a !== account && ACCOUNTS[a] === currency)[0] ?? null) : null;
      const rail = o.rail === 'book-transfer' && !to ? 'bank-transfer' : o.rail;
      world.describe({
        type: 'TransferReferenceReserved',
        data: { transfer_id: id, intent: { id, payment_type: rail, amount: o.amount, fee: o.fee, currency } },
      });
      const held = world.run({
        account,
        command: {
          type: 'PlaceHold',
          account_id: account,
          hold_id: id,
          amount: o.amount,
          fee: o.fee,
          origin_done: false,
          now: T,
        },
      });
      if (held.length)
        world.transfers.push({
          id,
          account,
          to: rail === 'book-transfer' ? to : null,
          amount: o.amount,
          state: 'held',
        });
      return;
    }
    case 'finish': {
      const t = world.transfers[o.pick % Math.max(world.transfers.length, 1)];
      if (!t) return;
      if (o.how === 'reverse') {
        if (t.state !== 'settled' || t.to) return; // only a settled payout on a rail comes back
        const total = world.streams
          .get(t.account)!
          .reduce((n, e) => (e.type === 'FundsHeld' && e.data.hold_id === t.id ? e.data.amount + e.data.fee : n), 0);
        world.run({
          account: t.account,
          command: {
            type: 'ReverseSettledHold',
            account_id: t.account,
            hold_id: t.id,
            total,
            already_reversed: false,
            now: T,
          },
        });
        t.state = 'reversed';
        return;
      }
      if (t.state !== 'held') return;
      world.run({
        account: t.account,
        command: {
          type: o.how === 'settle' ? 'SettleHold' : 'ReleaseHold',
          account_id: t.account,
          hold_id: t.id,
          now: T,
        },
      });
      t.state = o.how === 'settle' ? 'settled' : 'released';
      if (t.state === 'settled' && t.to) {
        world.run({
          account: t.to as AccountId,
          command: {
            type: 'ReceiveBookTransfer',
            account_id: t.to,
            transfer_id: t.id,
            from_account_id: t.account,
            amount: t.amount,
            currency,
            already_received: false,
            now: T,
          },
        });
      }
      return;
    }
    case 'card': {
      const id = world.id('ctxn');
      const cardCurrency = o.fx ? (currency === 'USD' ? 'EUR' : 'USD') : currency;
      const accountAmount = o.fx ? Math.round(o.amount * 1.1) : o.amount;
      world.describe({
        type: 'CardAuthorizationHeld',
        data: {
          card_id: 'crd_1',
          transaction: { id, currency: cardCurrency, amount: o.amount, account_amount: accountAmount },
        },
      });
      const held = world.run({
        account,
        card: true,
        command: {
          type: 'PlaceCardHold',
          account_id: account,
          hold_id: id,
          amount: accountAmount,
          origin_done: false,
          now: T,
        },
      });
      if (held.length)
        world.cards.push({ id, account, amount: o.amount, accountAmount, currency: cardCurrency, open: true });
      return;
    }
    case 'card_close': {
      const c = world.cards[o.pick % Math.max(world.cards.length, 1)];
      if (!c?.open) return;
      c.open = false;
      if (o.reverse) {
        world.describe({
          type: 'CardTransactionReversed',
          data: { card_id: 'crd_1', transaction: { id: c.id, currency: c.currency, amount: c.amount } },
        });
        world.run({
          account: c.account,
          card: true,
          command: { type: 'ReleaseCardHold', account_id: c.account, hold_id: c.id, now: T },
        });
        return;
      }
      const captured = Math.max(1, Math.floor(c.amount * o.fraction));
      const capturedAccount = Math.max(1, Math.floor(c.accountAmount * o.fraction));
      world.describe({
        type: 'CardTransactionCaptured',
        data: { card_id: 'crd_1', transaction: { id: c.id, currency: c.currency, amount: captured } },
      });
      world.run({
        account: c.account,
        card: true,
        command: { type: 'CaptureCardHold', account_id: c.account, hold_id: c.id, amount: capturedAccount, now: T },
      });
      return;
    }
    case 'collect': {
      const id = world.id('pi');
      const fee = Math.ceil((o.amount * o.feeBps) / 10_000);
      if (fee >= o.amount) return;
      world.describe({
        type: 'IntentActionCreated',
        data: { action: { payment_intent_id: id, payment_type: 'card-acq' } },
      });
      const done = world.run({
        account,
        command: {
          type: 'CreditCollection',
          account_id: account,
          payment_intent_id: id,
          amount: o.amount,
          fee,
          currency,
          now: T,
          already_credited: false,
        },
      });
      if (done.length) world.intents.push({ id, account, amount: o.amount });
      return;
    }
    case 'refund': {
      const i = world.intents[o.pick % Math.max(world.intents.length, 1)];
      if (!i) return;
      // The intent sets a refund aside only within the charge left (payment-intent.refunds.ts).
      const refunded = world.streams
        .get(i.account)!
        .reduce(
          (n, e) => n + (e.type === 'CollectionRefunded' && e.data.payment_intent_id === i.id ? e.data.amount : 0),
          0,
        );
      if (o.amount > i.amount - refunded) return;
      world.run({
        account: i.account,
        command: {
          type: 'RefundCollection',
          account_id: i.account,
          payment_intent_id: i.id,
          refund_id: world.id('rfd'),
          amount: o.amount,
          currency: ACCOUNTS[i.account],
          reason: null,
          now: T,
          already_refunded: false,
        },
      });
      return;
    }
    case 'retry': {
      // The same step again (a retried request, a process manager behind it): nothing more moves.
      const step = world.steps[o.pick % Math.max(world.steps.length, 1)];
      if (!step || step.command.type === 'FundAccount') return;
      const before = world.log.length;
      const retried =
        step.command.type === 'PlaceHold' || step.command.type === 'PlaceCardHold'
          ? { ...step.command, origin_done: true }
          : step.command;
      world.run({ ...step, command: retried as AccountCommand });
      if (world.log.length !== before) throw new Error(`retrying ${step.command.type} moved money again`);
      return;
    }
    case 'race': {
      // Two payouts decided on one state: the second append meets a changed revision, re-folds and decides again.
      const account2 = IDS[o.pick % IDS.length];
      const state = world.state(account2);
      if (state.status !== 'open') return;
      const half = Math.floor(balanceOf(state).available / 2) + 1;
      if (half < 1) return;
      for (let i = 0; i < 2; i++)
        apply(world, {
          kind: 'payout',
          account: IDS.indexOf(account2),
          amount: half,
          fee: 0,
          rail: 'bank-transfer',
          to: 0,
        });
      return;
    }
  }
}

function check(world: World): void {
  const book = bookOf(world.ledgers, KEY);
  expect(unbalancedCurrency(book)).toBeNull();
  const scratch = newLedgers();
  for (const event of world.log) expect(foldLedgerEvent(scratch, KEY, event)).toBeNull();
  expect(bookOf(scratch, KEY)).toEqual(book);
  for (const id of IDS) {
    const state = world.state(id);
    if (state.status !== 'open') throw new Error('account not open');
    const folded = balanceOf(state);
    expect(folded.available).toBeGreaterThanOrEqual(0);
    const ledger = book.accounts.get(id);
    expect(ledger ? customerBalance(ledger) : { current: 0n, available: 0n }).toEqual({
      current: BigInt(folded.current),
      available: BigInt(folded.available),
    });
  }
}

describe('the ledger under random money commands', () => {
  it('balances per currency, never overdraws, matches every account fold, and folds the same from scratch', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 60 }), (ops) => {
        const world = new World();
        for (const o of ops) {
          apply(world, o);
          check(world);
        }
      }),
      { numRuns: 150 },
    );
  });
});
