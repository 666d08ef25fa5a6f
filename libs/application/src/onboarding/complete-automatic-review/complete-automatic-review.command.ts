import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../command-handling';

/** The sandbox rule decides a submitted entity (sent by the kyc-review process manager). */
export class CompleteAutomaticReviewCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly entityId: string,
  ) {
    super();
  }
}
