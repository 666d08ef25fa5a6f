import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { notFound } from '@app/domain';
import type { TransferRecord } from '@app/domain/transfers';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException } from '../../command-handling';
import { isTransferId } from '../streams';
import { advanceTransfer } from '../transfer-money';
import { AdvanceTransferCommand } from './advance-transfer.command';

@CommandHandler(AdvanceTransferCommand)
export class AdvanceTransferHandler implements ICommandHandler<AdvanceTransferCommand> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ context, transferId, to, statusReason }: AdvanceTransferCommand): Promise<TransferRecord> {
    const transfer = isTransferId(transferId)
      ? await advanceTransfer(this.store, transferId, to, statusReason, context)
      : null;
    if (!transfer) throw new DomainException(notFound('transfer', transferId));
    return transfer;
  }
}
