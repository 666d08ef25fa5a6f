import { Module } from '@nestjs/common';
import { GetResourceHistoryHandler } from '@app/application/audit';
import { ListEventsHandler } from '@app/read-models/audit/list-events.query-handler';
import { AuditController } from './audit.controller';

/** The auditors' history (decisions §10): the event list over its index, and each resource's stream. */
@Module({
  controllers: [AuditController],
  providers: [ListEventsHandler, GetResourceHistoryHandler],
})
export class AuditModule {}
