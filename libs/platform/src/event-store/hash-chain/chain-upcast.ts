import type { RecordedEvent } from '../event-store.port';
import { GENESIS_HASH, eventHash, storedHash } from './event-hash';

/**
 * The chain upcaster: events appended before hash chains carry no `hash`; each gets the hash of
 * its content as read now, chained from the previous event's (stored or upcast) hash. Needs the
 * stream from revision 0 (or the hash before the first event given). Events that carry a hash
 * keep it: checking it is the verification's job, not a reader's.
 */
export function withChain(events: readonly RecordedEvent[], previousHash = GENESIS_HASH): RecordedEvent[] {
  let previous = previousHash;
  return events.map((event) => {
    const stored = storedHash(event.metadata);
    previous = stored ?? eventHash(previous, event);
    return stored ? event : { ...event, metadata: { ...event.metadata, hash: previous } };
  });
}

export interface ChainBreak {
  readonly streamId: string;
  readonly revision: number;
  readonly reason: 'hash_mismatch' | 'missing_revision' | 'hash_missing';
  /** For `hash_missing`: the first revision of the stream that has a hash. */
  readonly chainStart?: number;
}

/**
 * Recomputes a stream's chain (events in revision order, from 0). A changed type, data or metadata
 * breaks the event's own hash; a removed event leaves a gap in revisions and breaks its successor's.
 * An event without a hash after one that has it is a break too (`hash_missing`): events older than
 * chains all come before the first hashed one, since every append has been chained since, so a
 * hashless event later in a stream had its hash removed (an altered last event would otherwise
 * pass as "legacy", its hash recomputed by the upcaster from whatever it now says).
 */
export class ChainChecker {
  private previous = GENESIS_HASH;
  private nextRevision = 0;
  private chainStart: number | null = null;

  constructor(readonly streamId: string) {}

  /** The chain hash of the last event checked, as the history shows it (stored, or upcast for events older than chains). */
  get hash(): string {
    return this.previous;
  }

  check(event: RecordedEvent): ChainBreak | null {
    const expected = eventHash(this.previous, event);
    const stored = storedHash(event.metadata);
    const missing = event.revision !== this.nextRevision ? this.nextRevision : null;
    this.nextRevision = event.revision + 1;
    this.previous = stored ?? expected;
    if (stored !== undefined) this.chainStart ??= event.revision;
    if (missing !== null) return { streamId: this.streamId, revision: missing, reason: 'missing_revision' };
    if (stored === undefined && this.chainStart !== null)
      return { streamId: this.streamId, revision: event.revision, reason: 'hash_missing', chainStart: this.chainStart };
    return stored !== undefined && stored !== expected
      ? { streamId: this.streamId, revision: event.revision, reason: 'hash_mismatch' }
      : null;
  }
}
