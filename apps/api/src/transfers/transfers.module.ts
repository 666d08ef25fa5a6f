import { Module } from '@nestjs/common';
import { feeScheduleFrom } from '@app/domain/transfers';
import {
  CancelTransferHandler,
  CreateTransferHandler,
  GetTransferHandler,
  LegacyReferenceMigration,
  TRANSFER_FEES,
} from '@app/application/transfers';
import { ListTransfersHandler } from '@app/read-models/transfers/list-transfers.query-handler';
import { TransferReactionsModule } from '@app/application/transfers/transfer-reactions.module';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { StatementController } from '../accounts/statement.controller';
import { SandboxTransfersController } from './sandbox-transfers.controller';
import { TransfersController } from './transfers.controller';

@Module({
  // AdvanceTransfer (sandbox moves) and the process managers' transfer commands.
  imports: [TransferReactionsModule],
  controllers: [TransfersController, SandboxTransfersController, StatementController],
  providers: [
    CreateTransferHandler,
    CancelTransferHandler,
    GetTransferHandler,
    ListTransfersHandler,
    // Older logs' transfer references move to their keyed streams once, before the API serves.
    LegacyReferenceMigration,
    // Unknown payment types in TRANSFER_FEES stop the start, rather than being ignored.
    {
      provide: TRANSFER_FEES,
      useFactory: (config: PlatformConfig) => feeScheduleFrom(config.transferFeesBps),
      inject: [PLATFORM_CONFIG],
    },
  ],
  // The readiness probe holds traffic back until an older log is migrated.
  exports: [LegacyReferenceMigration],
})
export class TransfersModule {}
