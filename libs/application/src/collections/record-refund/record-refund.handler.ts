import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { RecordRefundCommand } from './record-refund.command';
import { recordRefund } from './record-refund';

@CommandHandler(RecordRefundCommand)
export class RecordRefundHandler implements ICommandHandler<RecordRefundCommand> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ context, debit }: RecordRefundCommand): Promise<void> {
    await recordRefund(this.store, debit, context);
  }
}
