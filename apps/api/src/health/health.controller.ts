import { Controller, Get, Inject, Req, Res, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService } from '@nestjs/terminus';
import type { Request, Response } from 'express';
import { describeAdapters } from '@app/platform/adapters';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { PlatformLifecycle } from '@app/platform/platform.module';
import { Public } from '../http/auth/auth.decorators';
import { WriteLoad } from '../http/overload/write-admission.middleware';
import { WORKER_SUPERVISOR, type WorkerSupervisor } from '../background/worker-supervisor';
import { ReadinessIndicators } from './readiness';
import { isOperatorToken } from '../admin/operator.guard';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';

@ApiTags('Platform')
@Controller('health')
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    private readonly platform: PlatformLifecycle,
    private readonly writes: WriteLoad,
    @Inject(WORKER_SUPERVISOR) private readonly worker: WorkerSupervisor | null,
    private readonly checks: HealthCheckService,
    private readonly readiness: ReadinessIndicators,
  ) {}

  /**
   * Liveness: the process answers. Touches no store, so an outage of a store (the event store
   * down) makes the API unready, never restarted: restarting it would not bring the store back.
   */
  @Get('live')
  @Public()
  @ApiRoute({
    id: 'getLiveness',
    summary: 'Liveness',
    description: 'The process answers; touches no store.',
    ok: { status: 200, schema: 'HealthCheck', description: 'Alive' },
  })
  live() {
    return this.checks.check([]);
  }

  /**
   * Readiness: every store this API serves from answers (readiness.ts); 503 with each check's
   * state otherwise, in @nestjs/terminus's shape (`status`, `info`, `error`, `details`), so the
   * orchestrator stops routing requests here until it answers again.
   */
  @Get('ready')
  @Public()
  @ApiRoute({
    id: 'getReadiness',
    summary: 'Readiness',
    description: 'Every store this API serves from answers.',
    ok: [
      { status: 200, schema: 'HealthCheck', description: 'Ready' },
      { status: 503, schema: 'HealthCheck', description: 'A store does not answer: each check’s state' },
    ],
  })
  async ready(@Res({ passthrough: true }) res: Response) {
    try {
      return await this.checks.check(this.readiness.checks());
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      res.status(503);
      return error.getResponse();
    }
  }

  /**
   * Liveness, how far the log's readers trail it, and the load on writes, for operators. Under
   * `npm start` the worker it supervises reports itself (state, pid, restarts, positions, process
   * managers); an API replica of a deployment reads the positions its workers store.
   */
  @Get()
  @Public()
  @ApiRoute({
    id: 'getHealth',
    summary: 'Health, and its details for operators',
    description:
      'Without the operator token: only whether the service is up (`{"status":"ok"}`). With `Authorization: Bearer <PAYMENTS_ADMIN_TOKEN>`: how far the log’s readers trail it, the load on writes and, under npm start, the supervised worker (pid, memory).',
    ok: { status: 200, schema: 'Health', description: 'Health' },
  })
  async health(@Req() req: Request) {
    // Issue 32 item 10: pids, memory and log positions are for operators, not for whoever asks.
    if (!isOperatorToken(this.config, req.headers.authorization)) return { status: 'ok' };
    const head = await this.store.headPosition();
    const base = {
      status: 'ok',
      adapters: describeAdapters(this.config),
      writes: { in_flight: this.writes.inFlight, refused: this.writes.refused, limit: this.config.maxInflightWrites },
    };
    if (!this.worker) {
      const stored = await this.platform.storedPositions();
      // In a test app the readers run in this very process: their live positions.
      const live = {
        projected: Math.max(stored.projected, this.platform.projector.lastPosition),
        published: Math.max(stored.published, this.platform.publisher.lastPosition),
      };
      return { ...base, log: { head, ...live } };
    }
    const { report, ...worker } = await this.worker.status();
    return {
      ...base,
      log: { head, projected: report?.projected ?? null, published: report?.published ?? null },
      process_managers: report?.process_managers ?? [],
      worker: {
        ...worker,
        roles: report?.roles ?? null,
        rss_bytes: report?.rss_bytes ?? null,
        tail: report?.tail ?? null,
        audit: report?.audit ?? null,
      },
    };
  }
}
