import { Module } from '@nestjs/common';
import { feeScheduleFrom } from '@app/domain/transfers';
import {
  AdvanceTransferHandler,
  ApplyTransferMoneyHandler,
  CreateTransferHandler,
  GetTransferHandler,
  RecoverTransferReservationHandler,
  TRANSFER_FEES,
  TransferRunners,
} from '@app/application/transfers';
import { ListTransfersHandler } from '@app/read-models/transfers/list-transfers.query-handler';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { StatementController } from '../accounts/statement.controller';
import { SandboxTransfersController } from './sandbox-transfers.controller';
import { TransfersController } from './transfers.controller';

@Module({
  controllers: [TransfersController, SandboxTransfersController, StatementController],
  providers: [
    CreateTransferHandler,
    AdvanceTransferHandler,
    // Sent by the process managers
    ApplyTransferMoneyHandler,
    RecoverTransferReservationHandler,
    GetTransferHandler,
    ListTransfersHandler,
    TransferRunners,
    // Unknown payment types in TRANSFER_FEES stop the start, rather than being ignored.
    { provide: TRANSFER_FEES, useFactory: (config: PlatformConfig) => feeScheduleFrom(config.transferFeesBps), inject: [PLATFORM_CONFIG] },
  ],
})
export class TransfersModule {}
