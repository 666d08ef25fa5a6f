import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { applyMoney, settleBookTransfer } from '../transfer-money';
import { ApplyTransferMoneyCommand } from './apply-transfer-money.command';

@CommandHandler(ApplyTransferMoneyCommand)
export class ApplyTransferMoneyHandler implements ICommandHandler<ApplyTransferMoneyCommand> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ context, event }: ApplyTransferMoneyCommand): Promise<void> {
    if (event.type !== 'TransferCreated') return applyMoney(this.store, event, context);
    // A book transfer's request settles it; if that request died, this does.
    if (event.data.destination_account_id !== null)
      await settleBookTransfer(this.store, event.data.transfer.id, context);
  }
}
