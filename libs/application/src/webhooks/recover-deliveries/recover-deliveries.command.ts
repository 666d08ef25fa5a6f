import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../command-handling';

/** Decisions §15: every delivery in [since, until] (ms, inclusive; until null: now) whose latest attempt failed, scheduled again. */
export class RecoverDeliveriesCommand extends Command<{ readonly scheduled: number }> {
  constructor(
    readonly context: CommandContext,
    readonly entityId: string,
    readonly webhookId: string,
    readonly since: number,
    readonly until: number | null,
  ) {
    super();
  }
}
