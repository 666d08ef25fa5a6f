import { Controller, Get, Inject } from '@nestjs/common';
import { ProcessManagerRunners } from '@app/application/process-managers';
import { describeAdapters } from '@app/platform/adapters';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { PlatformLifecycle } from '@app/platform/platform.module';
import { Public } from '../http/auth/auth.decorators';

@Controller('health')
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    private readonly platform: PlatformLifecycle,
    private readonly processManagers: ProcessManagerRunners,
  ) {}

  /** Liveness, how far the log's readers trail it, and which process managers this replica works, for operators. */
  @Get()
  @Public()
  async health() {
    const head = await this.store.headPosition();
    return {
      status: 'ok',
      adapters: describeAdapters(this.config),
      log: { head, projected: this.platform.projector.lastPosition, published: this.platform.publisher.lastPosition },
      process_managers: this.processManagers.status(),
    };
  }
}
