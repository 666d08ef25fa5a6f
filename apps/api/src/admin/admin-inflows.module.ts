import { Module } from '@nestjs/common';
import { RecordInflowHandler } from '@app/application/accounts/record-inflow/record-inflow.handler';
import { AdminInflowsController } from './admin-inflows.controller';
import { OperatorGuard } from './operator.guard';

/** Inflows recorded by the operator (decisions §11): its route and the command it sends. */
@Module({
  controllers: [AdminInflowsController],
  providers: [RecordInflowHandler, OperatorGuard],
})
export class AdminInflowsModule {}
