import { Command } from '@nestjs/cqrs';
import type { IntentActionRecord } from '@app/domain/collections';
import type { CommandContext } from '../../command-handling';

/**
 * Asks the acquirer to authorize a `pending` action (3-D Secure passed or not needed) and settles
 * a decided one. Sent by the confirming or authenticating request, and by the acquirer process
 * manager as the backstop; a repeat changes nothing.
 */
export class AuthorizeIntentActionCommand extends Command<IntentActionRecord> {
  constructor(
    readonly context: CommandContext,
    readonly intentActionId: string,
  ) {
    super();
  }
}
