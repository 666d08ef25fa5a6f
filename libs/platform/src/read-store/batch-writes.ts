import type { RecordedEvent } from '../event-store/event-store.port';
import type { PlannedWrite, Projection } from './projection';
import type { ProjectionWrite, ReadDocument, ReadStore } from './read-store.port';

/**
 * The writes of one batch of events, in log order, as the projector (and the replay) make them: a
 * document projection's `evolve` per document id; a planned projection's documents, planned on
 * what the store holds and what this batch planned before (the store sees the batch only when it
 * is applied, as one commit).
 */
export class BatchWrites {
  readonly writes: ProjectionWrite[] = [];
  private readonly planned = new Map<string, ReadDocument | null>();

  constructor(private readonly store: Pick<ReadStore, 'get'>) {}

  /** Adds the writes of one event for one projection (which handles it). */
  async add(projection: Projection, event: RecordedEvent): Promise<void> {
    if (projection.plan)
      return this.plan(projection, await projection.plan(event, (id) => this.read(projection.collection, id)), event);
    for (const id of projection.documentIds(event)) {
      this.writes.push({
        collection: projection.collection,
        id,
        position: event.position,
        evolve: (current) => projection.evolve(current as never, event),
      });
    }
  }

  private plan(projection: Projection, planned: readonly PlannedWrite[], event: RecordedEvent): void {
    for (const { id, doc } of planned) {
      this.planned.set(key(projection.collection, id), doc);
      this.writes.push({ collection: projection.collection, id, position: event.position, evolve: () => doc });
    }
  }

  private async read(collection: string, id: string): Promise<ReadDocument | null> {
    const k = key(collection, id);
    return this.planned.has(k) ? (this.planned.get(k) ?? null) : this.store.get(collection, id);
  }
}

const key = (collection: string, id: string) => `${collection}\u0000${id}`;
