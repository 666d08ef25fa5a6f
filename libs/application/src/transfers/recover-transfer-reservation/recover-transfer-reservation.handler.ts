import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { fold } from '@app/domain';
import { isTransfer, transferDecider, transferReferenceDecider } from '@app/domain/transfers';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { finishReservation, giveBack } from '../finish-reservation';
import { transferReferenceStream, transferStream } from '../streams';
import { RecoverTransferReservationCommand } from './recover-transfer-reservation.command';

/** The same steps the request would have taken, each idempotent (docs/decisions/transfers.md, crash windows). */
@CommandHandler(RecoverTransferReservationCommand)
export class RecoverTransferReservationHandler implements ICommandHandler<RecoverTransferReservationCommand> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ context, intent }: RecoverTransferReservationCommand): Promise<void> {
    const state = fold(transferDecider, (await this.store.readStream(transferStream(intent.id))) as never[]);
    if (isTransfer(state)) return;
    if (state.status === 'voided') return giveBack(this.store, intent, context);
    const reference = fold(transferReferenceDecider, (await this.store.readStream(transferReferenceStream(intent.account_id, intent.unique_reference))) as never[]);
    // Still the reserved id: finish it. Otherwise the reference moved on; only a stray hold may remain.
    if (reference.status === 'reserved' && reference.transfer_id === intent.id) await finishReservation(this.store, intent, context);
    else await giveBack(this.store, intent, context);
  }
}
