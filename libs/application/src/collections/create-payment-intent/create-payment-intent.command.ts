import { Command } from '@nestjs/cqrs';
import type { PaymentIntentRecord } from '@app/domain/collections';
import type { CommandContext } from '../../command-handling';
import type { IntentActionInput } from '../confirm-payment-intent/confirm-payment-intent.command';
import type { IntentActionView } from '../load';

export interface CreatePaymentIntentInput {
  readonly account_id: string;
  readonly currency: string;
  readonly amount: number;
  readonly reference: string;
  readonly description: string | null;
  /** Create-and-confirm in one call (spec). */
  readonly intent_action: IntentActionInput | null;
}

export interface CreatedPaymentIntent {
  readonly intent: PaymentIntentRecord;
  readonly intent_action: IntentActionView | null;
  /** False: the reference was taken on the account; `intent` is the one that took it (409, decisions/collections.md). */
  readonly created: boolean;
}

export class CreatePaymentIntentCommand extends Command<CreatedPaymentIntent> {
  constructor(
    readonly context: CommandContext,
    readonly input: CreatePaymentIntentInput,
  ) {
    super();
  }
}
