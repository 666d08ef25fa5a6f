import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { logger } from '@app/platform/logging/logger';
import { finishTransfer, isInsufficientFunds } from '../transfer-steps';
import { RecoverTransferReservationCommand } from './recover-transfer-reservation.command';

/** The steps the request would have taken next, each idempotent (docs/decisions/transfers.md, crash windows). */
@CommandHandler(RecoverTransferReservationCommand)
export class RecoverTransferReservationHandler implements ICommandHandler<RecoverTransferReservationCommand> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ context, intent }: RecoverTransferReservationCommand): Promise<void> {
    try {
      await finishTransfer(this.store, intent, context);
    } catch (error) {
      // Only an older version's reservation is held here, and its funds are gone: it stays bound to
      // its reference, and a retry of the request finishes it once the account is funded.
      if (!isInsufficientFunds(error)) throw error;
      logger.warn(
        { transfer_id: intent.id },
        'transfer recovery: the reserved transfer cannot be held (insufficient funds); left for a retry',
      );
    }
  }
}
