import { Module } from '@nestjs/common';
import { GetResourceHistoryHandler } from '@app/application/audit';
import { GetLedgerHandler, LedgerMetrics } from '@app/read-models/ledger';
import { ListEventsHandler } from '@app/read-models/audit/list-events.query-handler';
import { AuditCheckpointsApiModule } from './audit-checkpoints-api.module';
import { AuditController } from './audit.controller';
import { LedgerController } from '../ledger/ledger.controller';

/**
 * The auditors' history (decisions §10): the event list over its index, and each resource's stream a page at a time;
 * and the ledger (decisions §12), read from its projection (its handler also serves the operator’s route);
 * and the signed checkpoints over the log with their proofs (issue 23).
 */
@Module({
  imports: [AuditCheckpointsApiModule],
  controllers: [AuditController, LedgerController],
  // LedgerMetrics: the ledger’s totals per currency and mode on /metrics, from the same projection.
  providers: [ListEventsHandler, GetResourceHistoryHandler, GetLedgerHandler, LedgerMetrics],
})
export class AuditModule {}
