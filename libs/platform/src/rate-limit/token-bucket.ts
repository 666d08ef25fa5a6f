/**
 * A token bucket (decisions §2): it holds at most `capacity` tokens, gains `refillPerMs` tokens
 * each millisecond, and every request takes one; a request that finds less than one is refused.
 *
 * Stored as GCRA does it: one number, the theoretical arrival time (`tat`, ms) at which the
 * bucket would be full again. That makes every store's update a compare-and-set on one field.
 */
export interface TokenBucket {
  readonly capacity: number;
  readonly refillPerMs: number;
}

export interface BucketTake {
  readonly allowed: boolean;
  /** Whole tokens left once this request is counted. */
  readonly tokens: number;
  /** When refused: milliseconds until the next token. */
  readonly retryAfterMs: number;
}

const interval = (bucket: TokenBucket) => 1 / bucket.refillPerMs;
/** Intervals such as 1000/3 ms do not add up exactly in floating point. */
const EPSILON_MS = 1e-6;
/** How far ahead of now the full-again time may run: capacity − 1 tokens spent. */
export const tolerance = (bucket: TokenBucket) => (bucket.capacity - 1) * interval(bucket) + EPSILON_MS;

/** One request at `now` against a bucket full again at `tat` (undefined: a new, full bucket). */
export function takeToken(
  bucket: TokenBucket,
  tat: number | undefined,
  now: number,
): BucketTake & { readonly tat: number } {
  const start = Math.max(tat ?? now, now);
  if (start - now > tolerance(bucket)) return { ...refused(bucket, start, now), tat: start };
  return { ...allowedAt(bucket, start + interval(bucket), now), tat: start + interval(bucket) };
}

/** The outcome of a request that moved the bucket's full-again time to `tat`. */
export function allowedAt(bucket: TokenBucket, tat: number, now: number): BucketTake {
  return {
    allowed: true,
    tokens: Math.max(0, Math.floor(bucket.capacity - (tat - now) / interval(bucket) + EPSILON_MS)),
    retryAfterMs: 0,
  };
}

/** The outcome of a request refused by a bucket full again at `tat`. */
export function refused(bucket: TokenBucket, tat: number, now: number): BucketTake {
  return { allowed: false, tokens: 0, retryAfterMs: Math.max(1, Math.ceil(tat - now - tolerance(bucket))) };
}

/**
 * Where buckets live: in the database every API replica shares, so a key's limit holds across
 * replicas (docs/decisions.md, HTTP). Each take is atomic.
 */
export interface RateLimitStore {
  take(key: string, bucket: TokenBucket): Promise<BucketTake>;
  close(): Promise<void>;
}

export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');
