import { Module } from '@nestjs/common';
import { AdvanceTransferHandler } from './advance-transfer/advance-transfer.handler';
import { ApplyTransferMoneyHandler } from './apply-transfer-money/apply-transfer-money.handler';
import { RecoverTransferReservationHandler } from './recover-transfer-reservation/recover-transfer-reservation.handler';

/**
 * The transfer commands this feature's process managers send (transfer-runners.ts): the worker's
 * process-managers role imports it, and the API's transfers module for the same handlers (sandbox
 * moves send some of them too), so a process that has both builds each once.
 */
@Module({ providers: [AdvanceTransferHandler, ApplyTransferMoneyHandler, RecoverTransferReservationHandler] })
export class TransferReactionsModule {}
