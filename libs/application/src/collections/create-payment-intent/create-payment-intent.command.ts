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
}

export class CreatePaymentIntentCommand extends Command<CreatedPaymentIntent> {
  constructor(
    readonly context: CommandContext,
    readonly input: CreatePaymentIntentInput,
  ) {
    super();
  }
}
