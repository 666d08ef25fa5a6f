import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../command-handling';

/**
 * Sent by the card-authorization-recovery process manager: the endpoint was asked about this
 * transaction, and no outcome was recorded by the time the request asking it must have ended.
 */
export class RecoverCardAuthorizationCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly cardId: string,
    readonly transactionId: string,
  ) {
    super();
  }
}
