import type { CommandBus } from '@nestjs/cqrs';
import type { CollectionEvent } from '@app/domain/accounts';
import type { IntentActionEvent, PaymentIntentEvent, RequestedRefund } from '@app/domain/collections';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { reactionContext } from '../command-handling';
import { systemClock, type Clock } from '@app/platform/clock';
import type { ProcessManager } from '@app/platform/log-processing';
import { AuthorizeIntentActionCommand } from './authorize-intent-action/authorize-intent-action.command';
import { AUTHORIZATION_DEADLINE_MS } from './collections-config';
import { FinishRefundCommand } from './finish-refund/finish-refund.command';
import { RecordRefundCommand } from './record-refund/record-refund.command';
import { SettleIntentActionCommand } from './settle-intent-action/settle-intent-action.command';

/**
 * The acquirer step's backstop. The request that recorded the event (the confirmation, or the
 * customer passing 3-D Secure) authorizes before answering, so this acts only on work still
 * unfinished `deadlineMs` after the event (measured from the event's own time, so after a restart
 * an overdue step runs at once): an action nobody claimed is claimed and authorized; one whose
 * claim is still fresh is waited for, and taken over once the claim is as old as the deadline
 * (its claimant died between claim and answer), calling the acquirer with the claim's key.
 * Never a second call while the request's is running: decisions/collections.md.
 */
export function acquirerManager(
  commands: CommandBus,
  deadlineMs = AUTHORIZATION_DEADLINE_MS,
  clock: Clock = systemClock,
): ProcessManager {
  return {
    name: 'collections-acquirer',
    handles: ['PaymentIntentConfirmed', 'IntentActionAuthenticated'],
    async handle(recorded: RecordedEvent, signal: AbortSignal) {
      const event = recorded as unknown as
        | Extract<PaymentIntentEvent, { type: 'PaymentIntentConfirmed' }>
        | Extract<IntentActionEvent, { type: 'IntentActionAuthenticated' }>;
      const id = event.type === 'PaymentIntentConfirmed' ? event.data.intent.intent_action_id : event.data.action.id;
      if (!id) return;
      await clock.sleepUntil(recorded.metadata.occurred_at + deadlineMs, signal);
      await commands.execute(
        new AuthorizeIntentActionCommand(reactionContext(recorded, 'collections-acquirer'), id, {
          takeOverAfterMs: deadlineMs,
          signal,
        }),
      );
    },
  };
}

/** A decided action credits the account and completes or fails its intent (idempotent). */
export function settlementManager(commands: CommandBus): ProcessManager {
  return {
    name: 'collections-settlement',
    handles: ['IntentActionCompleted', 'IntentActionFailed'],
    async handle(recorded: RecordedEvent) {
      const event = recorded as unknown as Extract<
        IntentActionEvent,
        { type: 'IntentActionCompleted' | 'IntentActionFailed' }
      >;
      await commands.execute(
        new SettleIntentActionCommand(reactionContext(recorded, 'collections-settlement'), event.data.action.id),
      );
    },
  };
}

/** A refund debited on the account is recorded on its intent, which fires `payment_intent.refunded`. */
export function refundManager(commands: CommandBus): ProcessManager {
  return {
    name: 'collections-refunds',
    handles: ['CollectionRefunded'],
    async handle(recorded: RecordedEvent) {
      const event = recorded as unknown as Extract<CollectionEvent, { type: 'CollectionRefunded' }>;
      await commands.execute(new RecordRefundCommand(reactionContext(recorded, 'collections-refunds'), event.data));
    },
  };
}

/** Longer than a refund request takes to debit and record what it set aside, so the backstop never races it. */
export const REFUND_GRACE_MS = 5_000;

/**
 * A refund set aside whose request died before its end: once `graceMs` after the request has
 * passed, it is debited and recorded, or freed (a no-op when the request finished it, which the
 * intent's own stream says: this reads that stream and, only then, the account's log from the
 * revision the request recorded).
 */
export function refundRequestManager(
  commands: CommandBus,
  graceMs = REFUND_GRACE_MS,
  clock: Clock = systemClock,
): ProcessManager {
  return {
    name: 'collections-refund-requests',
    handles: ['PaymentIntentRefundRequested'],
    async handle(recorded: RecordedEvent, signal: AbortSignal) {
      await clock.sleepUntil(recorded.metadata.occurred_at + graceMs, signal);
      await commands.execute(
        new FinishRefundCommand(
          reactionContext(recorded, 'collections-refund-requests'),
          (recorded.data as unknown as { refund: RequestedRefund }).refund,
        ),
      );
    },
  };
}
