import { Module } from '@nestjs/common';
import { feeScheduleFrom } from '@app/domain/transfers';
import { TRANSFER_FEES, TransferRunners, TransfersService } from '@app/application/transfers';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { StatementController } from '../accounts/statement.controller';
import { SandboxTransfersController } from './sandbox-transfers.controller';
import { TransfersController } from './transfers.controller';

@Module({
  controllers: [TransfersController, SandboxTransfersController, StatementController],
  providers: [
    TransfersService,
    TransferRunners,
    // Unknown payment types in TRANSFER_FEES stop the start, rather than being ignored.
    { provide: TRANSFER_FEES, useFactory: (config: PlatformConfig) => feeScheduleFrom(config.transferFeesBps), inject: [PLATFORM_CONFIG] },
  ],
})
export class TransfersModule {}
