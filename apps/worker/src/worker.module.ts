import { Inject, Injectable, Module, Optional, type DynamicModule } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ProcessManagerRunners } from '@app/platform/log-processing';
import { ProcessManagersRoleModule } from './process-managers-role.module';
import { AuditCheckpointWriter } from '@app/platform/audit-checkpoints/audit-checkpoint-writer';
import { AuditCheckpointsModule } from '@app/platform/audit-checkpoints/audit-checkpoints.module';
import type { PlatformConfig, WorkerRole } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { sharedTailOf } from '@app/platform/log-reader/shared-tail';
import type { WorkerReport } from '@app/platform/log-reader/worker-protocol';
import { PlatformLifecycle, PlatformModule, readersOf } from '@app/platform/platform.module';
import { READ_MODELS } from '@app/read-models/read-models';
import { WebhookWorkerModule } from '@app/webhook-delivery/webhook-worker.module';

export const WORKER_ROLES_RUN = Symbol('WORKER_ROLES_RUN');

/** What this worker runs and how far each of its readers is: its /health, and its answer to npm start's API. */
@Injectable()
export class WorkerStatus {
  constructor(
    @Inject(WORKER_ROLES_RUN) readonly roles: readonly WorkerRole[],
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly platform: PlatformLifecycle,
    @Optional() @Inject(ProcessManagerRunners) private readonly runners: ProcessManagerRunners | null,
    @Optional() @Inject(AuditCheckpointWriter) private readonly checkpoints: AuditCheckpointWriter | null,
  ) {}

  report(): WorkerReport {
    return {
      roles: this.roles,
      projected: this.roles.includes('projector') ? this.platform.projector.lastPosition : null,
      published: this.roles.includes('publisher') ? this.platform.publisher.lastPosition : null,
      process_managers: this.runners?.status() ?? [],
      tail: sharedTailOf(this.store)?.stats ?? null,
      audit: this.checkpoints ? { holding: this.checkpoints.holdsLease, halted: this.checkpoints.haltedBecause } : null,
      rss_bytes: process.memoryUsage.rss(),
    };
  }
}

/**
 * The modules a worker's roles need beside the platform (global) and CqrsModule: the process
 * managers with the command handlers they send to, the webhook worker, and the audit checkpoint
 * writer. The projector and the
 * publisher are the platform's, started by its roles. Nothing of the HTTP API.
 */
@Module({})
export class WorkerRolesModule {
  static forRoles(roles: readonly WorkerRole[]): DynamicModule {
    const imports: DynamicModule['imports'] = [];
    if (roles.includes('process-managers')) imports.push(ProcessManagersRoleModule);
    if (roles.includes('webhooks')) imports.push(WebhookWorkerModule.register());
    // The checkpoint writer: signs periodically and once more at shutdown (app.close() on SIGTERM),
    // under a lease, into CHECKPOINT_DIR, which the API serves from.
    if (roles.includes('audit')) imports.push(AuditCheckpointsModule.forRoot({ writer: true }));
    return {
      module: WorkerRolesModule,
      imports,
      providers: [{ provide: WORKER_ROLES_RUN, useValue: roles }, WorkerStatus],
      exports: [WorkerStatus],
    };
  }
}

/** A worker: the platform with the readers of its roles, and the modules they need. */
@Module({})
export class WorkerModule {
  static forRoot(config: PlatformConfig, roles: readonly WorkerRole[]): DynamicModule {
    const imports: DynamicModule['imports'] = [PlatformModule.forRoot(readersOf(roles), config, READ_MODELS)];
    // Process managers send commands through the bus, to the handlers of the features' reactions modules.
    if (roles.includes('process-managers')) imports.push(CqrsModule.forRoot());
    imports.push(WorkerRolesModule.forRoles(roles));
    return { module: WorkerModule, imports };
  }
}
