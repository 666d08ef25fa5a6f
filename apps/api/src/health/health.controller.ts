import { Controller, Get, Inject } from '@nestjs/common';
import { ProcessManagerRunners } from '@app/application/process-managers';
import { describeAdapters } from '@app/platform/adapters';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { PlatformLifecycle } from '@app/platform/platform.module';
import { Public } from '../http/auth/auth.decorators';
import { BACKGROUND_READERS, type ReadersSupervisor } from '../background/readers-supervisor';

@Controller('health')
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    private readonly platform: PlatformLifecycle,
    private readonly processManagers: ProcessManagerRunners,
    @Inject(BACKGROUND_READERS) private readonly readers: ReadersSupervisor | null,
  ) {}

  /** Liveness, how far the log's readers trail it, and which process managers this replica works, for operators. */
  @Get()
  @Public()
  async health() {
    const head = await this.store.headPosition();
    const base = { status: 'ok', adapters: describeAdapters(this.config) };
    if (!this.readers) {
      return { ...base, log: { head, projected: this.platform.projector.lastPosition, published: this.platform.publisher.lastPosition }, process_managers: this.processManagers.status() };
    }
    // Under `npm start` the log's readers work in the supervised readers process: ask it.
    const { report, ...readers } = await this.readers.status();
    return { ...base, log: { head, projected: report?.projected ?? null, published: report?.published ?? null }, process_managers: report?.process_managers ?? [], readers };
  }
}
