import type { CommandBus } from '@nestjs/cqrs';
import type { CollectionEvent } from '@app/domain/accounts';
import type { IntentActionEvent, PaymentIntentEvent } from '@app/domain/collections';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { reactionContext } from '../command-handling';
import type { ProcessManager } from '../process-managers';
import { AuthorizeIntentActionCommand } from './authorize-intent-action/authorize-intent-action.command';
import { RecordRefundCommand } from './record-refund/record-refund.command';
import { SettleIntentActionCommand } from './settle-intent-action/settle-intent-action.command';

/**
 * The acquirer step: once an intent is confirmed (or its customer passed 3-D Secure), the action
 * goes to the acquirer. The request does it before answering; this is the backstop after a crash.
 */
export function acquirerManager(commands: CommandBus): ProcessManager {
  return {
    name: 'collections-acquirer',
    handles: ['PaymentIntentConfirmed', 'IntentActionAuthenticated'],
    async handle(recorded: RecordedEvent) {
      const event = recorded as unknown as Extract<PaymentIntentEvent, { type: 'PaymentIntentConfirmed' }> | Extract<IntentActionEvent, { type: 'IntentActionAuthenticated' }>;
      const id = event.type === 'PaymentIntentConfirmed' ? event.data.intent.intent_action_id : event.data.action.id;
      if (id) await commands.execute(new AuthorizeIntentActionCommand(reactionContext(recorded, 'collections-acquirer'), id));
    },
  };
}

/** A decided action credits the account and completes or fails its intent (idempotent). */
export function settlementManager(commands: CommandBus): ProcessManager {
  return {
    name: 'collections-settlement',
    handles: ['IntentActionCompleted', 'IntentActionFailed'],
    async handle(recorded: RecordedEvent) {
      const event = recorded as unknown as Extract<IntentActionEvent, { type: 'IntentActionCompleted' | 'IntentActionFailed' }>;
      await commands.execute(new SettleIntentActionCommand(reactionContext(recorded, 'collections-settlement'), event.data.action.id));
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
