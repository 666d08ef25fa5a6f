import { Command } from '@nestjs/cqrs';
import type { ExistingEntity, ReviewDecision } from '@app/domain';
import type { CommandContext } from '../../command-handling';

/** A manual review decision: the sandbox's (`/sandbox/entities/{id}/review`) or the operator's (`/admin/entities/{id}/review`). */
export class ReviewEntityCommand extends Command<ExistingEntity> {
  constructor(
    readonly context: CommandContext,
    readonly input: { readonly entityId: string; readonly decision: ReviewDecision; readonly reason: string | null },
  ) {
    super();
  }
}
