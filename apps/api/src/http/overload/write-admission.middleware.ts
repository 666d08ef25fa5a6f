import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { PlatformLifecycle } from '@app/platform/platform.module';
import { LoopDelay } from './loop-delay';
import { OverloadedError } from './overloaded.error';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * One refusal for every request, as under-pressure keeps one: a refusal must cost as little as
 * possible when a saturated loop sheds thousands a second, and a new Error's stack trace was
 * about a twentieth of one (a profile of refusals under a closed loop); this one's stack, the
 * first refusal's, is as good as any.
 */
const OVERLOADED = new OverloadedError();

/** Write requests being worked on now, and refused since the start (GET /health). */
@Injectable()
export class WriteLoad {
  inFlight = 0;
  refused = 0;
}

/**
 * Admission of writes, first thing after the request id (before the body is read): at most
 * `MAX_INFLIGHT_WRITES` write requests are worked on at once, and none is taken while the log's
 * writer already holds that many of this process's appends, nor while the event loop is saturated
 * (LoopDelay past `MAX_EVENT_LOOP_DELAY_MS`: on two cores the loop saturates long before the
 * in-flight bound fills, and a write taken then only queues). Past any bound the request answers
 * 503 `overloaded` with `Retry-After` at once. A request is refused whole, before it appends
 * anything, and an admitted one is never refused midway: nothing is ever left half-written by it.
 * Reads are not counted (lists have their own bound, READ_CONSISTENCY_TIMEOUT_MS).
 */
@Injectable()
export class WriteAdmission implements NestMiddleware {
  private readonly max: number;

  constructor(
    @Inject(PLATFORM_CONFIG) config: PlatformConfig,
    private readonly platform: PlatformLifecycle,
    private readonly load: WriteLoad,
    private readonly loop: LoopDelay,
  ) {
    this.max = config.maxInflightWrites;
  }

  use(req: Request, res: Response, next: NextFunction): void {
    if (!WRITES.has(req.method)) return next();
    if (this.load.inFlight >= this.max || this.platform.pendingAppends() >= this.max || this.loop.saturated) {
      this.load.refused++;
      throw OVERLOADED;
    }
    this.load.inFlight++;
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      this.load.inFlight--;
    };
    res.once('finish', release);
    res.once('close', release);
    next();
  }
}
