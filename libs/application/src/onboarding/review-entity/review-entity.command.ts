import { Command } from '@nestjs/cqrs';
import type { ExistingEntity, ReviewDecision } from '@app/domain';
import type { CommandContext } from '../../command-handling';

/** The sandbox's manual review decision. */
export class ReviewEntityCommand extends Command<ExistingEntity> {
  constructor(
    readonly context: CommandContext,
    readonly input: { readonly entityId: string; readonly decision: ReviewDecision; readonly reason: string | null },
  ) {
    super();
  }
}
