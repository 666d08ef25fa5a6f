import { conflict, type Decider, type Decision } from '../../shared';

/**
 * A payment detail lives in its counterparty's stream, but a payout names only the detail's id.
 * This one-event stream per detail points the id at its counterparty, so a command can go from
 * the id to the counterparty's stream without a read model (which would lag the log).
 */
export type PaymentDetailIndexEvent = {
  readonly type: 'PaymentDetailIndexed';
  readonly data: { readonly payment_detail_id: string; readonly counterparty_id: string };
};

export type PaymentDetailIndexState =
  { readonly status: 'none' } | { readonly status: 'indexed'; readonly counterparty_id: string };

export type PaymentDetailIndexCommand = {
  readonly type: 'IndexPaymentDetail';
  readonly payment_detail_id: string;
  readonly counterparty_id: string;
};

function decide(command: PaymentDetailIndexCommand, state: PaymentDetailIndexState): Decision<PaymentDetailIndexEvent> {
  if (state.status === 'none')
    return [
      {
        type: 'PaymentDetailIndexed',
        data: { payment_detail_id: command.payment_detail_id, counterparty_id: command.counterparty_id },
      },
    ];
  // Indexing again (a retry, the backfill) is a no-op; an id never moves to another counterparty.
  if (state.counterparty_id === command.counterparty_id) return [];
  return conflict(
    'payment_detail_indexed',
    `Payment detail ${command.payment_detail_id} already belongs to ${state.counterparty_id}`,
  );
}

function evolve(state: PaymentDetailIndexState, event: PaymentDetailIndexEvent): PaymentDetailIndexState {
  switch (event.type) {
    case 'PaymentDetailIndexed':
      return state.status === 'none' ? { status: 'indexed', counterparty_id: event.data.counterparty_id } : state;
    default:
      return state;
  }
}

export const paymentDetailIndexDecider: Decider<
  PaymentDetailIndexCommand,
  PaymentDetailIndexEvent,
  PaymentDetailIndexState
> = {
  initialState: { status: 'none' },
  decide,
  evolve,
};
