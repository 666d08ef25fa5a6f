/** Decisions §16: what an authorization endpoint may answer. */
export interface EndpointAnswer {
  readonly approved: boolean;
  /** A partial approval; null: the whole requested amount. */
  readonly amount: number | null;
  readonly reason: string | null;
}

export const ENDPOINT_REASON_MAX = 100;

/**
 * A 2xx body is a valid answer only as `{"approved": bool, "amount"?: 1..requested, "reason"?: ≤100}`;
 * anything else (another type, an amount out of range, extra nonsense in those fields) is no answer,
 * and the card's fallback decides.
 */
export function parseEndpointAnswer(body: string, requested: number): EndpointAnswer | null {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { approved, amount, reason } = value as Record<string, unknown>;
  if (typeof approved !== 'boolean') return null;
  if (
    amount !== undefined &&
    amount !== null &&
    (!Number.isSafeInteger(amount) || (amount as number) < 1 || (amount as number) > requested)
  )
    return null;
  if (reason !== undefined && reason !== null && (typeof reason !== 'string' || reason.length > ENDPOINT_REASON_MAX))
    return null;
  return {
    approved,
    amount: approved && typeof amount === 'number' ? amount : null,
    reason: typeof reason === 'string' ? reason : null,
  };
}
