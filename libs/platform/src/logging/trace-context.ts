import { createHash, randomBytes } from 'node:crypto';

/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): `traceparent` is
 * `00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>`.
 *
 * The log never records a trace (event metadata is hashed and kept forever; a trace id is
 * operational and often chosen by the caller). Work that continues from the log in another process
 * (the bus, webhooks, process managers' commands) derives its trace id from the event's
 * `correlation_id`, the request id that caused it, so every process computes the same id with no
 * state: a request, its events on the bus and its webhooks share one trace
 * (docs/decisions/infrastructure.md, "Operations").
 */
export interface TraceContext {
  readonly traceId: string;
  readonly spanId: string;
  readonly sampled: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** The caller's trace, or null for a missing or invalid header (then the API starts its own). */
export function parseTraceparent(header: string | string[] | undefined): TraceContext | null {
  if (typeof header !== 'string') return null;
  const match = TRACEPARENT.exec(header.trim());
  if (!match) return null;
  const [, version, traceId, spanId, flags, rest] = match;
  // Version ff is invalid; version 00 has exactly four fields; later versions may add fields.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return null;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return null;
  return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

export function formatTraceparent(context: TraceContext): string {
  return `00-${context.traceId}-${context.spanId}-${context.sampled ? '01' : '00'}`;
}

/** The trace id of everything that follows from a request: derived from its id (an event's `correlation_id`). */
export function traceIdOf(correlationId: string): string {
  return createHash('sha256').update(`trace:${correlationId}`).digest('hex').slice(0, 32);
}

/** A span id derived from a name (an event id), so every process names an event's span alike. */
export function spanIdOf(seed: string): string {
  return createHash('sha256').update(`span:${seed}`).digest('hex').slice(0, 16);
}

export function newSpanId(): string {
  return randomBytes(8).toString('hex');
}

/** The `traceparent` of an event read from the log: the trace of its correlation id, the event as the parent span. */
export function traceparentOfEvent(event: {
  readonly id: string;
  readonly metadata: { readonly correlation_id: string };
}): string {
  return formatTraceparent({
    traceId: traceIdOf(event.metadata.correlation_id),
    spanId: spanIdOf(event.id),
    sampled: true,
  });
}
