import { specFor } from '../../shared/testing/given-when-then';
import type { IntentActionEvent, IntentActionRecord } from './intent-action.events';
import { intentActionDecider, type IntentActionCommand } from './intent-action.decide';

const spec = specFor(intentActionDecider);
const T = 1_700_000_000_000;
const IA = 'ia_01J00000000000000000000000';
const action: IntentActionRecord = {
  id: IA,
  payment_intent_id: 'pi_1',
  entity_id: 'ent_1',
  account_id: 'acc_1',
  currency: 'USD',
  amount: 10_000,
  reference: 'order-1',
  applicable_fee: 290,
  charge_amount: 10_000,
  action: 'confirm',
  category: 'collections',
  payment_type: 'card-acq',
  payment_type_data: {
    auth_model: '3ds_required',
    payment_country: 'GB',
    last_four_digits: '4242',
    card_brand: 'visa',
    card_type: 'credit',
  },
  customer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  return_url: 'https://merchant.example/return',
  status: 'pending_user_action',
  status_reason: null,
  requires_action: true,
  next_action: { type: 'redirect_to_url', url: `http://localhost/3ds/${IA}` },
  created: T,
  updated: T,
};
const after = (
  status: IntentActionRecord['status'],
  status_reason: string | null = null,
  now = T + 5,
): IntentActionRecord => ({
  ...action,
  status,
  status_reason,
  requires_action: false,
  next_action: null,
  updated: now,
});
const created: IntentActionEvent = {
  type: 'IntentActionCreated',
  data: { action, acquirer_token: 'tok', authentication_expires: T + 1000 },
};
const authenticated: IntentActionEvent = { type: 'IntentActionAuthenticated', data: { action: after('pending') } };
const authenticate = (result: 'success' | 'failure', now = T + 5): IntentActionCommand => ({
  type: 'AuthenticateIntentAction',
  intent_action_id: IA,
  result,
  now,
});
const complete: IntentActionCommand = { type: 'CompleteIntentAction', intent_action_id: IA, now: T + 5 };
const fail: IntentActionCommand = {
  type: 'FailIntentAction',
  intent_action_id: IA,
  status_reason: 'card_declined',
  now: T + 5,
};

describe('intent action decider (spec state table, decisions §7)', () => {
  it('is created once; an acquirer refusal fails it at once', () => {
    const create: IntentActionCommand = {
      type: 'CreateIntentAction',
      action,
      acquirer_token: 'tok',
      authentication_expires: T + 1000,
      failure: null,
    };
    spec([]).when(create).then([created]);
    spec([created]).when(create).then([]);
    spec([])
      .when({ ...create, failure: 'acquirer_unavailable' })
      .then([
        created,
        { type: 'IntentActionFailed', data: { action: { ...after('failed', 'acquirer_unavailable', T) } } },
      ]);
  });

  it('pending_user_action: success → pending, failure → failed (authentication_failed)', () => {
    spec([created]).when(authenticate('success')).then([authenticated]);
    spec([created])
      .when(authenticate('failure'))
      .then([{ type: 'IntentActionFailed', data: { action: after('failed', 'authentication_failed') } }]);
  });

  it('authenticates once, and never after the page expired (409)', () => {
    spec([created, authenticated])
      .when(authenticate('success'))
      .thenError('authentication_not_pending', (e) => expect(e.kind).toBe('conflict'));
    spec([created])
      .when(authenticate('success', T + 1001))
      .thenError('authentication_expired');
  });

  it('an expired authentication fails on verification; a live one stays', () => {
    spec([created])
      .when({ type: 'ExpireAuthentication', intent_action_id: IA, now: T + 1001 })
      .then([{ type: 'IntentActionFailed', data: { action: after('failed', 'authentication_expired', T + 1001) } }]);
    spec([created])
      .when({ type: 'ExpireAuthentication', intent_action_id: IA, now: T + 10 })
      .then([]);
  });

  it('pending → completed or failed by the acquirer; repeats are no-ops, contradictions 409', () => {
    spec([created, authenticated])
      .when(complete)
      .then([{ type: 'IntentActionCompleted', data: { action: after('completed') } }]);
    spec([created, authenticated])
      .when(fail)
      .then([{ type: 'IntentActionFailed', data: { action: after('failed', 'card_declined') } }]);
    const done: IntentActionEvent = { type: 'IntentActionCompleted', data: { action: after('completed') } };
    spec([created, authenticated, done]).when(complete).then([]);
    spec([created, authenticated, done]).when(fail).thenError('invalid_state');
  });

  describe('claiming the acquirer call (one call per step)', () => {
    const start = (
      now: number,
      take_over_after_ms: number | null = null,
      idempotency_key = IA,
    ): IntentActionCommand => ({
      type: 'StartAuthorization',
      intent_action_id: IA,
      idempotency_key,
      take_over_after_ms,
      now,
    });
    const started = (at: number, key = IA): IntentActionEvent => ({
      type: 'IntentActionAuthorizationStarted',
      data: { intent_action_id: IA, idempotency_key: key, started: at },
    });

    it('a pending action is claimed once: a second claimant (a request or the backstop before the deadline) gets nothing', () => {
      spec([created, authenticated])
        .when(start(T + 10))
        .then([started(T + 10)]);
      spec([created, authenticated, started(T + 10)])
        .when(start(T + 11))
        .then([]);
      spec([created, authenticated, started(T + 10)])
        .when(start(T + 10 + 999, 1000))
        .then([]);
    });

    it("the backstop takes over a claim past its deadline, with the first claim's key; a request never does", () => {
      spec([created, authenticated, started(T + 10, 'first-key')])
        .when(start(T + 1010, 1000, 'other'))
        .then([started(T + 1010, 'first-key')]);
      spec([created, authenticated, started(T + 10)])
        .when(start(T + 999_999))
        .then([]);
    });

    it('nothing to claim unless pending: awaiting 3-D Secure, or decided', () => {
      spec([created])
        .when(start(T + 10))
        .then([]);
      spec([created, authenticated, { type: 'IntentActionCompleted', data: { action: after('completed') } }])
        .when(start(T + 10, 0))
        .then([]);
    });

    it('a claimed action still completes or fails (the claim changes nothing the API shows)', () => {
      spec([created, authenticated, started(T + 10)])
        .when(complete)
        .then([{ type: 'IntentActionCompleted', data: { action: after('completed') } }]);
    });
  });

  it('is never completed without authentication', () => spec([created]).when(complete).thenError('invalid_state'));
  it('answers not found for a missing action', () => spec([]).when(complete).thenError('intent_action_not_found'));
});
