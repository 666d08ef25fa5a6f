import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { notFound } from '@app/domain';
import type { TransferRecord } from '@app/domain/transfers';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException } from '../../command-handling';
import { isTransferId } from '../streams';
import { cancelTransfer } from '../transfer-money';
import { CancelTransferCommand } from './cancel-transfer.command';

@CommandHandler(CancelTransferCommand)
export class CancelTransferHandler implements ICommandHandler<CancelTransferCommand> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ context, transferId, entityId, reason }: CancelTransferCommand): Promise<TransferRecord> {
    if (!isTransferId(transferId)) throw new DomainException(notFound('transfer', transferId));
    return cancelTransfer(this.store, transferId, entityId, reason, context);
  }
}
