/**
 * A read model did not reach the log head of the moment the read began within the bound. The API
 * answers 503 `read_model_lagging` with Retry-After rather than a list that may miss a write the
 * client has already seen acknowledged (decisions §2, docs/architecture.md "Consistency").
 */
export class ReadModelLaggingError extends Error {
  readonly code = 'read_model_lagging';
  /** Seconds a client should wait before retrying: lag past the bound is rarely a blip. */
  readonly retryAfterSeconds = 1;

  constructor(
    readonly collection: string,
    readonly position: number,
    readonly waitedMs: number,
  ) {
    super(`The ${collection} read model has not caught up with the event log yet; retry shortly`);
    this.name = 'ReadModelLaggingError';
  }
}
