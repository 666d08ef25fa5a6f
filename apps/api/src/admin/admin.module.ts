import { Module } from '@nestjs/common';
import { ListOrganizationEventsHandler, OperatorActorHandler } from '@app/application/admin';
import { AdminController } from './admin.controller';
import { AdminInflowsModule } from './admin-inflows.module';
import { AdminLedgerController } from './admin-ledger.controller';
import { OperatorGuard } from './operator.guard';

/** The operator API; the commands it sends are the feature modules' own handlers. */
@Module({
  imports: [AdminInflowsModule],
  controllers: [AdminController, AdminLedgerController],
  providers: [OperatorActorHandler, ListOrganizationEventsHandler, OperatorGuard],
})
export class AdminModule {}
