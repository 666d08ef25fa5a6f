import { Module } from '@nestjs/common';
import { GetEventProofHandler } from '@app/application/audit/get-event-proof/get-event-proof.handler';
import {
  GetCheckpointConsistencyHandler,
  ListAuditCheckpointsHandler,
} from '@app/application/audit/list-audit-checkpoints/list-audit-checkpoints.handler';
import { AuditCheckpointsModule } from '@app/platform/audit-checkpoints/audit-checkpoints.module';
import { AdminAuditCheckpointsController } from '../admin/admin-audit-checkpoints.controller';
import { OperatorGuard } from '../admin/operator.guard';
import { EventProofController } from './event-proof.controller';

/**
 * Signed checkpoints over the log (issue 23): GET /events/{id}/proof for API keys, the checkpoints
 * and consistency proofs for the operator.
 *
 * The API only serves: the checkpoint writer is a reader of the log, so it runs in the worker's
 * `audit` role (apps/worker; npm start's worker has it), and the API reads what it signed from
 * CHECKPOINT_DIR (on a volume both see in a deployment). The key comes from AUDIT_SIGNING_KEY or
 * the file the writer generates in DATA_DIR.
 */
@Module({
  imports: [AuditCheckpointsModule.forRoot({ writer: false })],
  controllers: [EventProofController, AdminAuditCheckpointsController],
  providers: [GetEventProofHandler, ListAuditCheckpointsHandler, GetCheckpointConsistencyHandler, OperatorGuard],
})
export class AuditCheckpointsApiModule {}
