import { Command } from '@nestjs/cqrs';
import type { AuthModel, CollectionPaymentType, Customer, IntentActionRecord } from '@app/domain/collections';
import type { CommandContext } from '../../command-handling';

export interface BillingAddress {
  readonly address_line_one?: string;
  readonly city?: string;
  readonly state?: string;
  readonly country: string;
}

/** `intent_action` of POST /intent-actions and of create-and-confirm (spec). */
export interface IntentActionInput {
  readonly action: 'confirm';
  readonly category: 'collections';
  readonly payment_type: CollectionPaymentType;
  readonly payment_type_data: {
    readonly data?: string;
    readonly billing_address: BillingAddress;
    readonly auth_model?: AuthModel;
    readonly browser_info?: object;
  };
  readonly customer: Customer;
  readonly return_url?: string;
}

/** Confirms a `requires_action` intent with a new intent action, and returns that action. */
export class ConfirmPaymentIntentCommand extends Command<IntentActionRecord> {
  constructor(
    readonly context: CommandContext,
    readonly paymentIntentId: string,
    readonly input: IntentActionInput,
  ) {
    super();
  }
}
