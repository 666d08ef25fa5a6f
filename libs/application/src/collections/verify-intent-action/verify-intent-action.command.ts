import { Command } from '@nestjs/cqrs';
import type { IntentActionRecord } from '@app/domain/collections';
import type { CommandContext } from '../../command-handling';

/**
 * POST /intent-verifications/{id}: rechecks an action not yet final (an expired 3-D Secure fails,
 * a pending one is put to the acquirer again); a final one is returned as is.
 */
export class VerifyIntentActionCommand extends Command<IntentActionRecord> {
  constructor(
    readonly context: CommandContext,
    readonly intentActionId: string,
  ) {
    super();
  }
}
