import { specFor } from '../../shared/testing/given-when-then';
import type {
  PaymentIntentEvent,
  PaymentIntentRecord,
  PaymentIntentStatus,
  RefundRecord,
} from './payment-intent.events';
import { paymentIntentDecider, type NewPaymentIntent, type PaymentIntentCommand } from './payment-intent.decide';

const spec = specFor(paymentIntentDecider);
const T = 1_700_000_000_000;
const PI = 'pi_01J00000000000000000000000';
const IA = 'ia_01J00000000000000000000000';
const fresh: NewPaymentIntent = {
  id: PI,
  currency: 'USD',
  amount: 10_000,
  reference: 'order-1',
  description: null,
  entity_id: 'ent_1',
  account_id: 'acc_1',
  created: T,
};
const record = (status: PaymentIntentStatus, over: Partial<PaymentIntentRecord> = {}): PaymentIntentRecord => ({
  ...fresh,
  status,
  status_reason: null,
  intent_action_id: status === 'requires_action' || status === 'cancelled' ? null : IA,
  updated: T,
  ...over,
});
const created: PaymentIntentEvent = { type: 'PaymentIntentCreated', data: { intent: record('requires_action') } };
const confirmed: PaymentIntentEvent = { type: 'PaymentIntentConfirmed', data: { intent: record('processing') } };
const completed: PaymentIntentEvent = { type: 'PaymentIntentCompleted', data: { intent: record('completed') } };
const failed: PaymentIntentEvent = {
  type: 'PaymentIntentFailed',
  data: { intent: record('failed', { status_reason: 'card_declined' }) },
};
const cancelled: PaymentIntentEvent = { type: 'PaymentIntentCancelled', data: { intent: record('cancelled') } };

const confirm: PaymentIntentCommand = {
  type: 'ConfirmPaymentIntent',
  payment_intent_id: PI,
  intent_action_id: IA,
  now: T,
};
const cancel = (reason: string | null = null): PaymentIntentCommand => ({
  type: 'CancelPaymentIntent',
  payment_intent_id: PI,
  reason,
  now: T,
});
const complete: PaymentIntentCommand = {
  type: 'CompletePaymentIntent',
  payment_intent_id: PI,
  intent_action_id: IA,
  now: T,
};
const fail: PaymentIntentCommand = {
  type: 'FailPaymentIntent',
  payment_intent_id: PI,
  intent_action_id: IA,
  status_reason: 'card_declined',
  now: T,
};
const refund = (id: string, amount: number): RefundRecord => ({
  id,
  payment_intent_id: PI,
  account_id: 'acc_1',
  amount,
  currency: 'USD',
  reason: null,
  status: 'succeeded',
  created: T,
});
const record_ = (id: string, amount: number): PaymentIntentCommand => ({
  type: 'RecordRefund',
  payment_intent_id: PI,
  refund: refund(id, amount),
  now: T,
});

describe('payment intent decider (spec state table, decisions §2 and §7)', () => {
  it('is created in requires_action; creating the same id again is done', () => {
    spec([]).when({ type: 'CreatePaymentIntent', intent: fresh }).then([created]);
    spec([created]).when({ type: 'CreatePaymentIntent', intent: fresh }).then([]);
  });

  it.each<[Partial<NewPaymentIntent>, string]>([
    [{ amount: 0 }, 'amount'],
    [{ reference: '' }, 'reference'],
    [{ reference: 'r'.repeat(101) }, 'reference'],
    [{ description: 'd'.repeat(251) }, 'description'],
  ])('refuses %p naming %s', (over, field) => {
    spec([])
      .when({ type: 'CreatePaymentIntent', intent: { ...fresh, ...over } })
      .thenError('validation_error', (e) => expect(e.errors?.[0].field).toBe(field));
  });

  it('requires_action → processing on confirm, → cancelled on cancel (with its reason)', () => {
    spec([created]).when(confirm).then([confirmed]);
    spec([created])
      .when(cancel('customer left'))
      .then([
        { type: 'PaymentIntentCancelled', data: { intent: record('cancelled', { status_reason: 'customer left' }) } },
      ]);
  });

  it.each([
    ['processing', [created, confirmed]],
    ['completed', [created, confirmed, completed]],
    ['failed', [created, confirmed, failed]],
    ['cancelled', [created, cancelled]],
  ] as const)('a %s intent cannot be cancelled (409 invalid_state)', (_status, given) => {
    spec(given)
      .when(cancel())
      .thenError('invalid_state', (e) => expect(e.kind).toBe('conflict'));
  });

  it('cannot be confirmed twice by different actions, and a repeat of the same confirmation is done', () => {
    spec([created, confirmed]).when(confirm).then([]);
    spec([created, confirmed])
      .when({ ...confirm, intent_action_id: 'ia_other' })
      .thenError('invalid_state');
    spec([created, cancelled]).when(confirm).thenError('invalid_state');
  });

  it('processing → completed or failed by its own action only, once', () => {
    spec([created, confirmed]).when(complete).then([completed]);
    spec([created, confirmed]).when(fail).then([failed]);
    spec([created, confirmed, completed]).when(complete).then([]);
    spec([created, confirmed, completed]).when(fail).thenError('invalid_state');
    spec([created, confirmed])
      .when({ ...complete, intent_action_id: 'ia_other' })
      .thenError('intent_action_mismatch');
  });

  it('records refunds of a completed intent up to its amount, each id once', () => {
    spec([created, confirmed, completed])
      .when(record_('rfd_1', 4000))
      .then([{ type: 'PaymentIntentRefunded', data: { intent: record('completed'), refund: refund('rfd_1', 4000) } }]);
    const first: PaymentIntentEvent = {
      type: 'PaymentIntentRefunded',
      data: { intent: record('completed'), refund: refund('rfd_1', 4000) },
    };
    spec([created, confirmed, completed, first]).when(record_('rfd_1', 4000)).then([]);
    spec([created, confirmed, completed, first]).when(record_('rfd_2', 6001)).thenError('refund_exceeds_charge');
    spec([created, confirmed]).when(record_('rfd_1', 1)).thenError('invalid_state');
  });

  describe('a refund set aside before the account is debited (issue 26)', () => {
    const ask = (refund_id: string, amount: number): PaymentIntentCommand => ({
      type: 'RequestRefund',
      payment_intent_id: PI,
      refund_id,
      amount,
      reason: null,
      account_revision: 7,
      now: T,
    });
    const asked = (refund_id: string, amount: number): PaymentIntentEvent => ({
      type: 'PaymentIntentRefundRequested',
      data: {
        intent: record('completed'),
        refund: { payment_intent_id: PI, refund_id, amount, reason: null, account_revision: 7, requested: T },
      },
    });
    const done = [created, confirmed, completed];

    it('is set aside up to the charge left, counting what is already set aside; the same id again is done', () => {
      spec(done)
        .when(ask('rfd_1', 6000))
        .then([asked('rfd_1', 6000)]);
      spec([...done, asked('rfd_1', 6000)])
        .when(ask('rfd_1', 6000))
        .then([]);
      spec([...done, asked('rfd_1', 6000)])
        .when(ask('rfd_2', 4001))
        .thenError('refund_exceeds_charge');
      spec([...done, asked('rfd_1', 6000)])
        .when(ask('rfd_2', 4000))
        .then([asked('rfd_2', 4000)]);
      spec([created, confirmed]).when(ask('rfd_1', 1)).thenError('invalid_state');
    });

    it('once debited, is recorded without a second check, and leaves what is set aside', () => {
      spec([...done, asked('rfd_1', 6000), asked('rfd_2', 4000)])
        .when(record_('rfd_1', 6000))
        .thenState((state) => expect(state).toMatchObject({ refunded: 6000, requested: { rfd_2: { amount: 4000 } } }));
    });

    it('refused by the account, frees what it set aside, once', () => {
      const refused: PaymentIntentEvent = {
        type: 'PaymentIntentRefundFailed',
        data: { intent: record('completed'), refund_id: 'rfd_1', reason: 'insufficient_funds', failed: T },
      };
      const failRefund: PaymentIntentCommand = {
        type: 'FailRefund',
        payment_intent_id: PI,
        refund_id: 'rfd_1',
        reason: 'insufficient_funds',
        now: T,
      };
      spec([...done, asked('rfd_1', 10_000)])
        .when(failRefund)
        .then([refused]);
      spec([...done, asked('rfd_1', 10_000), refused])
        .when(failRefund)
        .then([]);
      spec([...done, asked('rfd_1', 10_000), refused])
        .when(ask('rfd_2', 10_000))
        .then([asked('rfd_2', 10_000)]);
    });
  });

  it('answers not found for a missing intent', () => spec([]).when(cancel()).thenError('payment_intent_not_found'));
});
