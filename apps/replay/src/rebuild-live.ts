import type { ReadDocument, ReadStore } from '@app/platform/read-store/read-store.port';

/**
 * `--rebuild`: replaces each live document that differs from the replay, while the API runs.
 * Each write is position-guarded at `head + 0.5`: it lands only on documents last written at or
 * before the head the replay was computed for, and every later event (positions are integers)
 * still applies on top of it. No collection is emptied, so lists never see a hole, and the
 * projectors' checkpoints are untouched. A document written after the head is left to its newer
 * event; run the verification again to see it.
 */
export async function replaceDiffering(store: ReadStore, collection: string, ids: readonly string[], rebuilt: Map<string, ReadDocument>, head: number): Promise<void> {
  const writes = ids.map((id) => ({ collection, id, position: head + 0.5, evolve: () => rebuilt.get(id) ?? null }));
  for (let i = 0; i < writes.length; i += 500) await store.apply(writes.slice(i, i + 500), {});
}
