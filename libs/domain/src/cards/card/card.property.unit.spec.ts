import fc from 'fast-check';
import { isDomainError, type DomainError } from '../../shared';
import { balanceOf, type AccountEvent, type AccountState, type OpenAccountState } from '../../accounts/account';
import { accountCardMoneyDecider, type CardMoneyCommand } from '../card-money/account-card-money';
import type { CardControls, MccGroups } from '../controls/controls';
import { cardUsage } from '../controls/usage';
import { convert } from '../fx/fx';
import { cardDecider, type CardCommand } from './card.decide';
import type { CardEvent, IssuedCard } from './card.events';
import { pendingTransaction, pendingTransactions, type CardState, type IssuedCardState } from './card';
import type { CardTransactionRecord } from './card-transaction';
import { emptyMap } from '../../shared/persistent-map';

/**
 * Any interleaving of authorizations, captures, reversals, freezes, reassignments and days
 * passing, driven through the deciders as the handlers drive them (card stream first, then the
 * account): approved spend never exceeds a limit nor an account's balance, and every usage field
 * reads balance = limit − used − hold.
 */
const DAY = 86_400_000;
const T0 = Date.UTC(2030, 0, 6); // a Sunday
const GROUPS: MccGroups = { restaurants: ['5812', '5814'], gambling: ['7995'] };
const MCCS = ['5311', '5311', '5812', '5814', '5942', '7995'];
const FUNDS: Record<string, number> = { acc_usd: 6_000, acc_eur: 4_000 };
const RATES: Record<string, number> = { acc_usd: 1, acc_eur: 0.92 };
const CONTROLS: CardControls = {
  individual: {
    billing_cycle: 'Weekly',
    billing_cycle_day: 'Sunday',
    cycle_transaction_count: 12,
    daily_amount_limit: 9_000,
    daily_transaction_count: 5,
    transaction_amount_limit: 4_000,
  },
  mcc: [
    {
      mcc: '5942',
      open: true,
      cumulative_amount_limit: 6_000,
      cycle_transaction_count: 4,
      daily_amount_limit: 3_000,
      daily_transaction_count: 2,
      transaction_amount_limit: 2_500,
    },
  ],
  groups: [
    {
      group_name: 'restaurants',
      open: true,
      cumulative_amount_limit: null,
      cycle_transaction_count: null,
      daily_amount_limit: 2_000,
      daily_transaction_count: 3,
      transaction_amount_limit: null,
    },
    {
      group_name: 'gambling',
      open: false,
      cumulative_amount_limit: null,
      cycle_transaction_count: null,
      daily_amount_limit: null,
      daily_transaction_count: null,
      transaction_amount_limit: null,
    },
  ],
};
const LIMITS: Record<string, number | null> = {
  amount: 25_000,
  daily_transaction_count: 5,
  daily_amount_limit: 9_000,
  cycle_transaction_count: 12,
};

type Action =
  | { kind: 'authorize'; amount: number; mcc: string; capture: boolean }
  | { kind: 'capture'; pick: number; fraction: number }
  | { kind: 'reverse'; pick: number }
  | { kind: 'freeze' | 'unfreeze' | 'reassign' | 'day' | 'hours' };

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('authorize' as const),
      amount: fc.integer({ min: 1, max: 5_000 }),
      mcc: fc.constantFrom(...MCCS),
      capture: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('capture' as const),
      pick: fc.nat(),
      fraction: fc.double({ min: 0.01, max: 1, noNaN: true }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reverse' as const), pick: fc.nat() }) },
  fc.record({
    kind: fc.constantFrom(
      'freeze' as const,
      'unfreeze' as const,
      'reassign' as const,
      'day' as const,
      'hours' as const,
    ),
  }),
);

const byId = (a: CardTransactionRecord, b: CardTransactionRecord) => (a.id < b.id ? -1 : 1);

class World {
  card: CardState = cardDecider.initialState;
  accounts: Record<string, AccountState> = {};
  now = T0 + 9 * 3_600_000;
  seq = 0;
  /** Every transaction as its latest event recorded it (the card keeps the pending ones only). */
  readonly transactions = new Map<string, CardTransactionRecord>();

  constructor() {
    for (const id of Object.keys(FUNDS)) this.accounts[id] = this.openAccount(id);
    const card: IssuedCard = {
      card_id: 'crd_1',
      entity_id: 'ent_1',
      account_id: 'acc_usd',
      type: 'virtual',
      name: 'Prop',
      currency: 'USD',
      amount: LIMITS.amount!,
      cardholder: { first_name: 'A', last_name: 'B', email: 'a@b.co', phone_number: '+2348000000000' },
      billing: null,
      pan: 'sealed',
      cvv: 'sealed',
      last_four: '0000',
      expiration_month: '01',
      expiration_year: '33',
      controls: CONTROLS,
      transaction_alerts: false,
      metadata: {},
      issued: this.now,
    };
    this.onCard({ type: 'IssueCard', card });
  }

  private openAccount(id: string): AccountState {
    const base: OpenAccountState = {
      status: 'open',
      id,
      entity_id: 'ent_1',
      mode: 'sandbox',
      type: 'checking',
      currency: id === 'acc_usd' ? 'USD' : 'EUR',
      minor_units: 2,
      display_name: id,
      service_ban: 'x',
      current: FUNDS[id],
      held: 0,
      holds: emptyMap(),
      references: emptyMap(),
      details: {},
      created: 0,
      updated: 0,
    };
    return base;
  }

  get issued(): IssuedCardState {
    return this.card as IssuedCardState;
  }

  onCard(command: CardCommand): DomainError | null {
    const decided = cardDecider.decide(command, this.card);
    if (isDomainError(decided)) return decided;
    this.card = (decided as CardEvent[]).reduce(cardDecider.evolve, this.card);
    // The card state keeps pending transactions only; the model keeps every one as its events said.
    for (const e of decided as CardEvent[])
      if ('transaction' in e.data) this.transactions.set(e.data.transaction.id, e.data.transaction);
    return null;
  }

  onAccount(id: string, command: CardMoneyCommand): DomainError | null {
    const decided = accountCardMoneyDecider.decide(command, this.accounts[id]);
    if (isDomainError(decided)) return decided;
    this.accounts[id] = (decided as AccountEvent[]).reduce(accountCardMoneyDecider.evolve, this.accounts[id]);
    return null;
  }

  pending(pick: number) {
    const list = pendingTransactions(this.issued);
    return list.length ? list[pick % list.length] : null;
  }

  run(a: Action): void {
    const card_id = 'crd_1';
    switch (a.kind) {
      case 'authorize':
        return this.authorize(a.amount, a.mcc, a.capture);
      case 'capture': {
        const t = this.pending(a.pick);
        if (t) this.settle(t.id, Math.max(1, Math.floor(t.amount * a.fraction)));
        return;
      }
      case 'reverse': {
        const t = this.pending(a.pick);
        if (t && !this.onCard({ type: 'ReverseCardTransaction', card_id, transaction_id: t.id, now: this.now }))
          this.onAccount(t.account_id, {
            type: 'ReleaseCardHold',
            account_id: t.account_id,
            hold_id: t.id,
            now: this.now,
          });
        return;
      }
      case 'freeze':
      case 'unfreeze':
        this.onCard({ type: a.kind === 'freeze' ? 'FreezeCard' : 'UnfreezeCard', card_id, now: this.now });
        return;
      case 'reassign':
        this.onCard({
          type: 'ReassignCard',
          card_id,
          account_id: this.issued.card.account_id === 'acc_usd' ? 'acc_eur' : 'acc_usd',
          now: this.now,
        });
        return;
      case 'day':
        this.now += DAY;
        return;
      case 'hours':
        this.now += 5 * 3_600_000;
    }
  }

  private authorize(amount: number, mcc: string, capture: boolean): void {
    const account_id = this.issued.card.account_id;
    const rate = RATES[account_id];
    const fx = rate === 1 ? null : { rate, account_currency: 'EUR', account_amount: convert(amount, rate, 2, 2) };
    const merchant = { name: 'm', mcc, city: 'c', state: 's', postal_code: 'p', country: 'NG' };
    const id = `ctxn_${++this.seq}`;
    this.onCard({
      type: 'AuthorizeCard',
      card_id: 'crd_1',
      transaction_id: id,
      amount,
      merchant,
      account_id,
      fx,
      groups: GROUPS,
      now: this.now,
    });
    const t = this.transactions.get(id)!;
    if (t.status !== 'pending') return;
    if (
      this.onAccount(account_id, {
        type: 'PlaceCardHold',
        account_id,
        hold_id: id,
        amount: t.account_amount,
        origin_done: !pendingTransaction(this.issued, id),
        now: this.now,
      })
    ) {
      this.onCard({
        type: 'DeclineHeldAuthorization',
        card_id: 'crd_1',
        transaction_id: id,
        reason: 'insufficient_funds',
        now: this.now,
      });
      return;
    }
    if (capture) this.settle(id, null);
  }

  private settle(id: string, amount: number | null): void {
    if (this.onCard({ type: 'CaptureCardTransaction', card_id: 'crd_1', transaction_id: id, amount, now: this.now }))
      return;
    const t = this.transactions.get(id)!;
    this.onAccount(t.account_id, {
      type: 'CaptureCardHold',
      account_id: t.account_id,
      hold_id: id,
      amount: t.account_amount,
      now: this.now,
    });
  }

  check(): void {
    const usage = cardUsage({
      amount: LIMITS.amount!,
      controls: CONTROLS,
      usage: this.issued.usage,
      groups: GROUPS,
      now: this.now,
    });
    for (const [prefix, limit] of Object.entries(LIMITS)) {
      const used = usage.card[`${prefix}_used`];
      const hold = usage.card[`${prefix}_hold`];
      expect(used + hold).toBeLessThanOrEqual(limit!);
      expect(usage.card[`${prefix}_balance`]).toBe(limit! - used - hold);
    }
    const entries = [
      ...usage.mcc.map((u, i) => [u, CONTROLS.mcc[i]] as const),
      ...usage.groups.map((u, i) => [u, CONTROLS.groups[i]] as const),
    ];
    for (const [u, e] of entries) {
      for (const [prefix, limit] of [
        ['cumulative_amount', e.cumulative_amount_limit],
        ['cycle_transaction_count', e.cycle_transaction_count],
        ['daily_amount_limit', e.daily_amount_limit],
        ['daily_transaction_count', e.daily_transaction_count],
      ] as const) {
        if (limit === null) continue;
        expect(u[`${prefix}_used`] + u[`${prefix}_hold`]).toBeLessThanOrEqual(limit);
        expect(u[`${prefix}_balance`]).toBe(limit - u[`${prefix}_used`] - u[`${prefix}_hold`]);
      }
    }
    const txs = [...this.transactions.values()];
    expect(pendingTransactions(this.issued).sort(byId)).toEqual(txs.filter((t) => t.status === 'pending').sort(byId));
    for (const t of txs.filter((x) => x.status === 'successful' || x.status === 'pending')) {
      expect(t.amount).toBeLessThanOrEqual(CONTROLS.individual!.transaction_amount_limit!);
      if (t.merchant.mcc === '5942') expect(t.amount).toBeLessThanOrEqual(2_500);
    }
    for (const [id, state] of Object.entries(this.accounts)) {
      const open = state as OpenAccountState;
      const onThis = txs.filter((t) => t.account_id === id);
      const captured = onThis.filter((t) => t.status === 'successful').reduce((s, t) => s + t.account_amount, 0);
      const held = onThis.filter((t) => t.status === 'pending').reduce((s, t) => s + t.account_amount, 0);
      // Money is neither created nor lost: what left is what was captured; what is held is what is pending.
      expect(open.current).toBe(FUNDS[id] - captured);
      expect(open.current - balanceOf(open).available).toBe(held);
      expect(balanceOf(open).available).toBeGreaterThanOrEqual(0);
    }
  }
}

describe('cards: property over interleavings', () => {
  it('never passes a limit or the balance, and balance = limit − used − hold on every field', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(fc.array(action, { maxLength: 80 }), (actions) => {
        const world = new World();
        for (const a of actions) {
          world.run(a);
          world.check();
        }
        for (const t of world.transactions.values())
          seen.set(t.status_reason ?? t.status, (seen.get(t.status_reason ?? t.status) ?? 0) + 1);
      }),
      { numRuns: 200 },
    );
    // The interleavings reached every outcome, so the checks above were not vacuous.
    expect([...seen.keys()].sort()).toEqual([
      'card_blocked',
      'insufficient_funds',
      'limit_exceeded',
      'mcc_blocked',
      'pending',
      'reversed',
      'successful',
    ]);
  });
});
