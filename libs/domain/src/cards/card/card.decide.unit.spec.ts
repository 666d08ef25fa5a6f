import { specFor } from '../../shared/testing/given-when-then';
import { cardCreationCounterDecider, cardNumberDecider } from '../reservations/card-reservations';
import type { CardEvent, IssuedCard } from './card.events';
import { cardDecider, type CardCommand } from './card.decide';
import { cardStatus, pendingTransaction, type IssuedCardState } from './card';
import type { CardTransactionRecord } from './card-transaction';

const spec = specFor(cardDecider);
const T = Date.UTC(2030, 0, 15, 10);
const MERCHANT = { name: 'm', mcc: '5942', city: 'c', state: 's', postal_code: 'p', country: 'NG' };
const card = (over: Partial<IssuedCard> = {}): IssuedCard => ({
  card_id: 'crd_1',
  entity_id: 'ent_1',
  account_id: 'acc_1',
  type: 'virtual',
  name: 'Card',
  currency: 'USD',
  amount: 10_000,
  cardholder: { first_name: 'A', last_name: 'B', email: 'a@b.co', phone_number: '+2348000000000' },
  billing: null,
  pan: 'v1.sealed',
  cvv: 'v1.sealed',
  last_four: '1234',
  expiration_month: '01',
  expiration_year: '33',
  controls: { individual: null, mcc: [], groups: [] },
  transaction_alerts: false,
  metadata: {},
  issued: T,
  ...over,
});
const issued = (over: Partial<IssuedCard> = {}): CardEvent => ({ type: 'CardIssued', data: card(over) });
const auth = (id: string, amount = 1_000, account_id = 'acc_1'): CardCommand => ({
  type: 'AuthorizeCard',
  card_id: 'crd_1',
  transaction_id: id,
  amount,
  merchant: MERCHANT,
  account_id,
  fx: null,
  groups: {},
  now: T,
});
/** The transaction as the decision recorded it (a finished one is no longer in the state). */
const recorded = (events: readonly CardEvent[], id: string): CardTransactionRecord | undefined =>
  events.flatMap((e) => ('transaction' in e.data && e.data.transaction.id === id ? [e.data.transaction] : [])).pop();
const at = (type: 'CardFrozen' | 'CardDeleted' | 'CardMarkedFraud'): CardEvent => ({
  type,
  data: { card_id: 'crd_1', at: T },
});

describe('card decider', () => {
  it('holds an authorization that fits, once per transaction id', () => {
    spec([issued()])
      .when(auth('t1'))
      .thenState((state) => expect(pendingTransaction(state as IssuedCardState, 't1')!.status).toBe('pending'));
    const held: CardEvent[] = [];
    spec([issued()])
      .when(auth('t1'))
      .thenState((_s, events) => held.push(...events));
    spec([issued(), ...held])
      .when(auth('t1'))
      .then([]);
  });

  describe('the entity’s endpoint (decisions §16)', () => {
    const decision = { source: 'endpoint' as const, endpoint_status: 200, latency_ms: 12, reason: null };
    const held = (): CardEvent[] => {
      const events: CardEvent[] = [issued()];
      spec([issued()])
        .when(auth('t1', 4_000))
        .thenState((_s, e) => events.push(...e));
      return events;
    };
    const request: CardCommand = { type: 'RequestCardAuthorization', card_id: 'crd_1', transaction_id: 't1', now: T };
    const decide = (approved: boolean, amount: number | null): CardCommand => ({
      type: 'DecideCardAuthorization',
      card_id: 'crd_1',
      transaction_id: 't1',
      approved,
      amount,
      authorization: decision,
      now: T,
    });
    const asked: CardEvent = {
      type: 'CardAuthorizationRequested',
      data: { card_id: 'crd_1', transaction_id: 't1', at: T },
    };

    it('records the asking once: a transaction already asked is never asked again', () => {
      spec(held()).when(request).then([asked]);
      spec([...held(), asked])
        .when(request)
        .then([]);
    });

    it('a partial approval holds only the approved amount in the usage', () => {
      spec([...held(), asked])
        .when(decide(true, 1_500))
        .thenState((state) => {
          expect(pendingTransaction(state as IssuedCardState, 't1')).toMatchObject({
            amount: 1_500,
            account_amount: 1_500,
            authorization: decision,
          });
          // As if 1,500 had been authorized: the usage holds what was approved, nothing of the rest.
          spec([issued()])
            .when(auth('t1', 1_500))
            .thenState((direct) => expect((state as IssuedCardState).usage).toEqual((direct as IssuedCardState).usage));
        });
    });

    it('records one outcome: the first wins, a second records nothing', () => {
      const first: CardEvent[] = [];
      spec([...held(), asked])
        .when(decide(false, null))
        .thenState((state, events) => {
          first.push(...events);
          expect(recorded(events, 't1')).toMatchObject({
            status: 'declined',
            status_reason: 'declined_by_endpoint',
            authorization: decision,
          });
          expect((state as IssuedCardState).pending.size).toBe(0);
        });
      spec([...held(), asked, ...first])
        .when(decide(true, null))
        .then([]);
      const approved: CardEvent[] = [];
      spec([...held(), asked])
        .when(decide(true, null))
        .thenState((_s, events) => approved.push(...events));
      spec([...held(), asked, ...approved])
        .when(decide(false, null))
        .then([]);
    });
  });

  it('refuses to decide for an account the card no longer draws on (reassigned meanwhile)', () => {
    spec([issued()])
      .when(auth('t1', 1_000, 'acc_old'))
      .thenError('card_reassigned');
  });

  it('reads blocked when frozen or deleted, fraud when marked, and declines card_blocked', () => {
    for (const event of [at('CardFrozen'), at('CardDeleted'), at('CardMarkedFraud')]) {
      spec([issued(), event])
        .when(auth('t1'))
        .thenState((state, events) => {
          expect(recorded(events, 't1')!.status_reason).toBe('card_blocked');
          expect((state as IssuedCardState).pending.size).toBe(0);
          expect(cardStatus(state as IssuedCardState)).toBe(event.type === 'CardMarkedFraud' ? 'fraud' : 'blocked');
        });
    }
    spec([issued(), at('CardMarkedFraud')])
      .when({ type: 'FreezeCard', card_id: 'crd_1', now: T })
      .thenError('card_fraud');
    spec([issued(), at('CardDeleted')])
      .when({ type: 'UnfreezeCard', card_id: 'crd_1', now: T })
      .thenError('card_deleted');
  });

  it('declines over the amount, then captures at most what was held, once', () => {
    spec([issued()])
      .when(auth('t1', 10_001))
      .thenState((_s, e) => expect(recorded(e, 't1')!.status_reason).toBe('limit_exceeded'));
    const events: CardEvent[] = [issued()];
    spec(events)
      .when(auth('t1', 4_000))
      .thenState((_s, e) => events.push(...e));
    spec(events)
      .when({ type: 'CaptureCardTransaction', card_id: 'crd_1', transaction_id: 't1', amount: 4_001, now: T })
      .thenError('amount_exceeds_hold');
    spec(events)
      .when({ type: 'CaptureCardTransaction', card_id: 'crd_1', transaction_id: 't1', amount: 2_500, now: T })
      .thenState((s, e) => {
        expect(recorded(e, 't1')).toMatchObject({ status: 'successful', amount: 2_500, account_amount: 2_500 });
        // Finished, it leaves the state: the state holds what is open, never the card's history.
        expect((s as IssuedCardState).pending.size).toBe(0);
        events.push(...e);
      });
    spec(events)
      .when({ type: 'ReverseCardTransaction', card_id: 'crd_1', transaction_id: 't1', now: T })
      .thenError('card_transaction_not_pending');
    spec(events)
      .when({
        type: 'DeclineHeldAuthorization',
        card_id: 'crd_1',
        transaction_id: 't1',
        reason: 'insufficient_funds',
        now: T,
      })
      .then([]);
  });

  it('uses up a disposable card on its first capture', () => {
    const events: CardEvent[] = [issued({ type: 'disposable' })];
    spec(events)
      .when(auth('t1'))
      .thenState((_s, e) => events.push(...e));
    spec(events)
      .when(auth('t2'))
      .thenState((_s, e) => expect(recorded(e, 't2')!.status_reason).toBe('card_blocked'));
    spec(events)
      .when({ type: 'CaptureCardTransaction', card_id: 'crd_1', transaction_id: 't1', amount: null, now: T })
      .thenState((s, e) => {
        expect(e.map((x) => x.type)).toEqual(['CardTransactionCaptured', 'CardUsedUp']);
        expect(cardStatus(s as IssuedCardState)).toBe('blocked');
      });
  });
});

describe('card reservations', () => {
  it('a number belongs to the first card that reserves it', () => {
    specFor(cardNumberDecider)([{ type: 'CardNumberReserved', data: { card_id: 'crd_1', reserved: T } }])
      .when({ card_id: 'crd_2', now: T })
      .thenError('card_number_taken');
    specFor(cardNumberDecider)([{ type: 'CardNumberReserved', data: { card_id: 'crd_1', reserved: T } }])
      .when({ card_id: 'crd_1', now: T })
      .then([]);
  });

  it('the hourly counter refuses past the limit with the 429 details', () => {
    const given = [1, 2].map((n) => ({
      type: 'CardCreationCounted' as const,
      data: { card_id: `crd_${n}`, counted: T },
    }));
    specFor(cardCreationCounterDecider)(given)
      .when({ card_id: 'crd_3', limit: 2, now: T, window_end: T + 90_500 })
      .thenError('rate_limited', (e) =>
        expect(e.details).toEqual({
          retry_after: 91,
          limit_type: 'card_creation_per_hour',
          current_count: 2,
          limit: 2,
        }),
      );
  });
});
