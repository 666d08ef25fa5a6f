import { Command } from '@nestjs/cqrs';
import type { AuthenticationResult, IntentActionRecord } from '@app/domain/collections';
import type { CommandContext } from '../../command-handling';

/**
 * The customer's 3-D Secure answer, from the page a browser completes or from
 * `POST /sandbox/intent-actions/{id}/authenticate`. Answers after the action is decided and settled.
 */
export class AuthenticateIntentActionCommand extends Command<IntentActionRecord> {
  constructor(
    readonly context: CommandContext,
    readonly intentActionId: string,
    readonly result: AuthenticationResult,
  ) {
    super();
  }
}
