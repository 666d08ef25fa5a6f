/** Sandbox and live are two worlds inside an organization (decisions §1); every event carries its world. */
export type Mode = 'sandbox' | 'live';

/**
 * The one upcaster for modes. Events appended since modes exist carry `metadata.mode`. Older ones
 * carry none: a creation event that recorded its mode in its data (API keys, entity tokens,
 * entities, accounts) keeps that world, and everything else was sandbox. The log is never
 * rewritten; every reader of a mode asks this function (stream owners are read from their first
 * event, so a legacy live key or account stays live).
 */
export function modeOf(
  metadata: { readonly mode?: unknown } | null | undefined,
  data?: { readonly mode?: unknown },
): Mode {
  const recorded = metadata?.mode ?? data?.mode;
  return recorded === 'live' ? 'live' : 'sandbox';
}
