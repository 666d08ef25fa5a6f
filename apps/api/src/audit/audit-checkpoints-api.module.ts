import { Module } from '@nestjs/common';
import { GetEventProofHandler } from '@app/application/audit/get-event-proof/get-event-proof.handler';
import { GetCheckpointConsistencyHandler, ListAuditCheckpointsHandler } from '@app/application/audit/list-audit-checkpoints/list-audit-checkpoints.handler';
import { AuditCheckpointsModule } from '@app/platform/audit-checkpoints/audit-checkpoints.module';
import { AdminAuditCheckpointsController } from '../admin/admin-audit-checkpoints.controller';
import { OperatorGuard } from '../admin/operator.guard';
import { EventProofController } from './event-proof.controller';

/**
 * Signed checkpoints over the log (issue 23): GET /events/{id}/proof for API keys, the checkpoints
 * and consistency proofs for the operator.
 *
 * The checkpoint writer boots here, in every API process, for now: it holds a lease, so one
 * process per deployment signs. Once the worker runtime (apps/worker) has a role for it, import
 * AuditCheckpointsModule.forRoot({ writer: true }) there and `{ writer: false }` here: the API then
 * only serves what the worker signed (CHECKPOINT_DIR on a volume both see).
 */
@Module({
  imports: [AuditCheckpointsModule.forRoot({ writer: true })],
  controllers: [EventProofController, AdminAuditCheckpointsController],
  providers: [GetEventProofHandler, ListAuditCheckpointsHandler, GetCheckpointConsistencyHandler, OperatorGuard],
})
export class AuditCheckpointsApiModule {}
