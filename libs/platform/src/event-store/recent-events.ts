import type { RecordedEvent } from './event-store.port';

/** 8 MB of event JSON: a few thousand events, what the readers following the head ask for again. */
const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

/** About what an event holds: its data and metadata as JSON (their lengths, when the caller read them as text), and its ids. */
export const eventBytes = (
  event: Pick<RecordedEvent, 'streamId' | 'type'>,
  dataJsonLength: number,
  metadataJsonLength: number,
): number => dataJsonLength + metadataJsonLength + event.streamId.length + event.type.length + 64;
const weigh = (event: RecordedEvent): number =>
  eventBytes(event, JSON.stringify(event.data).length, JSON.stringify(event.metadata).length);

/**
 * The tail of the log, by position: what this process appended, and what it read at the head
 * (another process's appends). Every subscriber (projector,
 * publisher, process managers, webhook worker) reads each new event right after it is written;
 * serving them from here spares a query and a JSON parse per subscriber. Only consecutive
 * positions are served: anything not held here (another process's append, an evicted event, a
 * gap) falls back to the database, so the cache can be incomplete but never wrong.
 *
 * Bounded by the bytes its events weigh, not their count (issue 26: every cache has a budget in
 * bytes): a run of large events (a card's data, a webhook's body) holds fewer of them.
 */
export class RecentEvents {
  private readonly byPosition = new Map<number, { event: RecordedEvent; bytes: number }>();
  private total = 0;

  constructor(private readonly maxBytes = DEFAULT_MAX_BYTES) {}

  /** `weights`: each event's `eventBytes` when the caller has them (rows read as text): serializing an event again only to weigh it was a tenth of a reader's parse. */
  remember(events: readonly RecordedEvent[], weights?: readonly number[]): void {
    for (const [i, event] of events.entries()) {
      const bytes = weights?.[i] ?? weigh(event);
      this.total += bytes - (this.byPosition.get(event.position)?.bytes ?? 0);
      this.byPosition.set(event.position, { event, bytes });
    }
    // Appends arrive in position order, and a Map iterates in insertion order: the first key is the oldest.
    for (const [position, { bytes }] of this.byPosition) {
      if (this.total <= this.maxBytes) break;
      this.byPosition.delete(position);
      this.total -= bytes;
    }
  }

  /** The events right after `after`, while they are held; empty when the next one is not. */
  after(after: number, limit: number): RecordedEvent[] {
    const found: RecordedEvent[] = [];
    for (let position = after + 1; found.length < limit; position++) {
      const held = this.byPosition.get(position);
      if (!held) break;
      found.push(held.event);
    }
    return found;
  }

  /** Estimated bytes held, for tests. */
  get bytes(): number {
    return this.total;
  }
}
