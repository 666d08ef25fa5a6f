import { Command } from '@nestjs/cqrs';
import type { RequestedRefund } from '@app/domain/collections';
import type { CommandContext } from '../../command-handling';

/** Sent by the refund-request backstop for a refund set aside whose request died before its end. */
export class FinishRefundCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly requested: RequestedRefund,
  ) {
    super();
  }
}
