import { Controller, Get, Inject } from '@nestjs/common';
import { describeAdapters } from '@app/platform/adapters';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { PlatformLifecycle } from '@app/platform/platform.module';
import { Public } from '../http/auth/auth.decorators';
import { WriteLoad } from '../http/overload/write-admission.middleware';
import { WORKER_SUPERVISOR, type WorkerSupervisor } from '../background/worker-supervisor';

@Controller('health')
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    private readonly platform: PlatformLifecycle,
    private readonly writes: WriteLoad,
    @Inject(WORKER_SUPERVISOR) private readonly worker: WorkerSupervisor | null,
  ) {}

  /**
   * Liveness, how far the log's readers trail it, and the load on writes, for operators. Under
   * `npm start` the worker it supervises reports itself (state, pid, restarts, positions, process
   * managers); an API replica of a deployment reads the positions its workers store.
   */
  @Get()
  @Public()
  async health() {
    const head = await this.store.headPosition();
    const base = { status: 'ok', adapters: describeAdapters(this.config), writes: { in_flight: this.writes.inFlight, refused: this.writes.refused, limit: this.config.maxInflightWrites } };
    if (!this.worker) {
      const stored = await this.platform.storedPositions();
      // In a test app the readers run in this very process: their live positions.
      const live = { projected: Math.max(stored.projected, this.platform.projector.lastPosition), published: Math.max(stored.published, this.platform.publisher.lastPosition) };
      return { ...base, log: { head, ...live } };
    }
    const { report, ...worker } = await this.worker.status();
    return {
      ...base,
      log: { head, projected: report?.projected ?? null, published: report?.published ?? null },
      process_managers: report?.process_managers ?? [],
      worker: { ...worker, roles: report?.roles ?? null, rss_bytes: report?.rss_bytes ?? null, tail: report?.tail ?? null },
    };
  }
}
