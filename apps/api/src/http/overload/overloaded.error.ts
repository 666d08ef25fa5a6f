/**
 * The API is working on as many writes as it takes at once (`MAX_INFLIGHT_WRITES`), or its log
 * writer already holds that many appends, or its event loop is saturated (`MAX_EVENT_LOOP_DELAY_MS`,
 * issue 28): the request is refused before it does anything, with
 * 503 `overloaded` and `Retry-After`, rather than queued for seconds (issue 20).
 */
export class OverloadedError extends Error {
  readonly code = 'overloaded';
  readonly retryAfterSeconds = 1;

  constructor() {
    super('The API is handling as many writes as it can right now; retry shortly');
    this.name = 'OverloadedError';
  }
}
