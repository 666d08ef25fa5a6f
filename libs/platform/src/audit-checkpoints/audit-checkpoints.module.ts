import { Module, type DynamicModule } from '@nestjs/common';
import { AuditCheckpointWriter } from './audit-checkpoint-writer';
import { AuditCheckpoints } from './audit-checkpoints';

export interface AuditCheckpointsOptions {
  /**
   * Run the checkpoint writer in this process. It takes a lease, so booting it in every replica
   * is safe (one signs); a process that only serves proofs and checkpoints passes false.
   */
  readonly writer: boolean;
}

/**
 * Signed checkpoints over the log (docs/decisions/audit.md, "Signed checkpoints"): the checkpoint
 * store and, when asked, its writer. Self-contained beside the platform module (it needs
 * PLATFORM_CONFIG, EVENT_STORE and LEASE_STORE, which that global module exports), so it boots in
 * the API (serving, `writer: false`) and in the worker's `audit` role (signing) alike.
 */
@Module({})
export class AuditCheckpointsModule {
  static forRoot(options: AuditCheckpointsOptions): DynamicModule {
    const providers = options.writer ? [AuditCheckpoints, AuditCheckpointWriter] : [AuditCheckpoints];
    return { module: AuditCheckpointsModule, providers, exports: providers };
  }
}
