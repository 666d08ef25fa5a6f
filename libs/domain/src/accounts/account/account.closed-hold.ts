import type { AccountEvent } from './account.events';

/** How a hold that is no longer open ended, and the total it had reserved (amount + fee). */
export interface ClosedHold {
  readonly total: number;
  readonly outcome: 'released' | 'settled' | 'reversed';
}

const OUTCOME = { HoldReleased: 'released', HoldSettled: 'settled', HoldReversed: 'reversed' } as const;

/**
 * How the account's own log closed this hold, reading on from what an earlier call found (`known`):
 * the latest closing event wins (settled, then reversed). The account state does not keep closed
 * holds (its size would grow with history), so the rare command that needs one (a reversal) has
 * its caller read the stream through this and pass the answer in.
 */
export function closedHoldIn(events: readonly AccountEvent[], holdId: string, known: ClosedHold | null = null): ClosedHold | null {
  let closed = known;
  for (const event of events) {
    if (event.type !== 'HoldReleased' && event.type !== 'HoldSettled' && event.type !== 'HoldReversed') continue;
    if (event.data.hold_id === holdId) closed = { total: event.data.total, outcome: OUTCOME[event.type] };
  }
  return closed;
}
