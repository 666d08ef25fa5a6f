import { Command } from '@nestjs/cqrs';
import type { ExistingEntity } from '@app/domain';
import type { CommandContext } from '../../command-handling';

/** Submits an entity for review; it stays `pending` until decided. */
export class SubmitOnboardingCommand extends Command<ExistingEntity> {
  constructor(
    readonly context: CommandContext,
    readonly entityId: string,
  ) {
    super();
  }
}
