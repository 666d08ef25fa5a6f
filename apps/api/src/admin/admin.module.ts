import { Module } from '@nestjs/common';
import { ListOrganizationEventsHandler, OperatorActorHandler } from '@app/application/operator';
import { AdminController } from './admin.controller';
import { OperatorGuard } from './operator.guard';

/** The operator API; the commands it sends are the feature modules' own handlers. */
@Module({
  controllers: [AdminController],
  providers: [OperatorActorHandler, ListOrganizationEventsHandler, OperatorGuard],
})
export class AdminModule {}
