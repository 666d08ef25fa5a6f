import { conflict, domainError, type Decider, type Decision } from '../../shared';

/**
 * `card-number-<digest>`: a card number belongs to one card platform-wide. The first
 * reservation wins; another card asking for the same digits is refused and draws again.
 */
type NumberEvent = {
  readonly type: 'CardNumberReserved';
  readonly data: { readonly card_id: string; readonly reserved: number };
};
type NumberState = { readonly card_id: string | null };
type ReserveNumber = { readonly card_id: string; readonly now: number };

export const cardNumberDecider: Decider<ReserveNumber, NumberEvent, NumberState> = {
  initialState: { card_id: null },
  decide(command, state): Decision<NumberEvent> {
    if (state.card_id === command.card_id) return [];
    if (state.card_id) return conflict('card_number_taken', 'This card number belongs to another card');
    return [{ type: 'CardNumberReserved', data: { card_id: command.card_id, reserved: command.now } }];
  },
  evolve: (_state, event) => ({ card_id: event.data.card_id }),
};

/**
 * `card-transaction-<id>`: points a card transaction at its card, written before the card decides,
 * so capture and reverse go from the transaction id to the card's stream.
 */
type IndexEvent = {
  readonly type: 'CardTransactionIndexed';
  readonly data: { readonly transaction_id: string; readonly card_id: string };
};
type IndexState = { readonly card_id: string | null };

export const cardTransactionIndexDecider: Decider<IndexEvent['data'], IndexEvent, IndexState> = {
  initialState: { card_id: null },
  decide: (command, state) => (state.card_id ? [] : [{ type: 'CardTransactionIndexed', data: command }]),
  evolve: (_state, event) => ({ card_id: event.data.card_id }),
};

/**
 * `card-creations-<entity>-<hour>`: the card-creation limit per entity and clock hour (decisions §2),
 * counted on a stream so every API replica counts against the same number.
 */
type CountEvent = {
  readonly type: 'CardCreationCounted';
  readonly data: { readonly card_id: string; readonly counted: number };
};
type CountState = { readonly count: number; readonly cards: readonly string[] };
type CountCreation = {
  readonly card_id: string;
  readonly limit: number;
  readonly now: number;
  readonly window_end: number;
};

export const cardCreationCounterDecider: Decider<CountCreation, CountEvent, CountState> = {
  initialState: { count: 0, cards: [] },
  decide(command, state): Decision<CountEvent> {
    if (state.cards.includes(command.card_id)) return [];
    if (state.count >= command.limit) {
      const retry_after = Math.max(1, Math.ceil((command.window_end - command.now) / 1000));
      return domainError(
        'rate_limited',
        'rate_limited',
        `At most ${command.limit} cards may be created per entity per hour`,
        {
          details: {
            retry_after,
            limit_type: 'card_creation_per_hour',
            current_count: state.count,
            limit: command.limit,
          },
        },
      );
    }
    return [{ type: 'CardCreationCounted', data: { card_id: command.card_id, counted: command.now } }];
  },
  evolve: (state, event) => ({ count: state.count + 1, cards: [...state.cards, event.data.card_id] }),
};
