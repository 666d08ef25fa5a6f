import type { RecordedEvent } from './event-store.port';

/**
 * The tail of the log, by position: what this process appended, and what it read at the head
 * (another process's appends). Every subscriber (projector,
 * publisher, process managers, webhook worker) reads each new event right after it is written;
 * serving them from here spares a query and a JSON parse per subscriber. Only consecutive
 * positions are served: anything not held here (another process's append, an evicted event, a
 * gap) falls back to the database, so the cache can be incomplete but never wrong.
 */
export class RecentEvents {
  private readonly byPosition = new Map<number, RecordedEvent>();

  constructor(private readonly capacity = 20_000) {}

  remember(events: readonly RecordedEvent[]): void {
    for (const event of events) this.byPosition.set(event.position, event);
    // Appends arrive in position order, and a Map iterates in insertion order: the first key is the oldest.
    while (this.byPosition.size > this.capacity) this.byPosition.delete(this.byPosition.keys().next().value as number);
  }

  /** The events right after `after`, while they are held; empty when the next one is not. */
  after(after: number, limit: number): RecordedEvent[] {
    const found: RecordedEvent[] = [];
    for (let position = after + 1; found.length < limit; position++) {
      const event = this.byPosition.get(position);
      if (!event) break;
      found.push(event);
    }
    return found;
  }
}
