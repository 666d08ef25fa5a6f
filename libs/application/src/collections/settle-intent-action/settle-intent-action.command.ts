import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../command-handling';

/** Sent by the settlement process manager: the backstop that applies a decided action's effects. */
export class SettleIntentActionCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly intentActionId: string,
  ) {
    super();
  }
}
