import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';

/** The histogram's timer: a sample every 10 ms, as Fastify's under-pressure takes them. */
const RESOLUTION_MS = 10;
/** Each reading is the mean of one window: short enough to shed within a moment of saturation, long enough that one GC pause does not. */
const WINDOW_MS = 500;

/**
 * How late this process's event loop runs, measured as Fastify's `under-pressure` does (issue 28,
 * part 5): `perf_hooks.monitorEventLoopDelay` samples the loop every 10 ms, and every window the
 * mean delay beyond that resolution becomes the reading, then the histogram starts again. Past
 * `MAX_EVENT_LOOP_DELAY_MS` the loop is saturated: what arrives now waits behind work already
 * taken, so WriteAdmission refuses writes rather than queue them. under-pressure itself is a
 * Fastify plugin, and the Node shedders (overload-protection, toobusy-js) time a timer's drift
 * instead, the first answering every request itself: this is under-pressure's few lines on the built-in.
 * Sampling starts once the application has bootstrapped: the start's synchronous work is no load.
 */
@Injectable()
export class LoopDelay implements OnApplicationBootstrap, OnApplicationShutdown {
  /** The last window's mean delay beyond the resolution, ms. */
  delayMs = 0;
  /** 0: off (no histogram, never saturated). */
  readonly limitMs: number;
  private histogram: IntervalHistogram | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(@Inject(PLATFORM_CONFIG) config: PlatformConfig) {
    this.limitMs = config.maxEventLoopDelayMs;
  }

  get saturated(): boolean {
    return this.limitMs > 0 && this.delayMs > this.limitMs;
  }

  onApplicationBootstrap(): void {
    if (this.limitMs <= 0 || this.histogram) return;
    const histogram = (this.histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS }));
    histogram.enable();
    this.timer = setInterval(() => {
      // A window without a sample says nothing (the timer ran, so the loop did): keep the last reading.
      if (histogram.count > 0) this.delayMs = Math.max(0, histogram.mean / 1e6 - RESOLUTION_MS);
      histogram.reset();
    }, WINDOW_MS).unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.histogram?.disable();
    this.timer = this.histogram = null;
  }
}
