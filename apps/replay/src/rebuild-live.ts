import type { ReadDocument, ReadStore } from '@app/platform/read-store/read-store.port';

/**
 * `--rebuild`: replaces each live document that differs from the replay, while the API runs, as
 * the comparison finds them (500 a write). Each write is position-guarded at `head + 0.5`, `head`
 * being the position the replay read to: it lands only on documents last written at or before
 * that head, and every later event (positions are integers) still applies on top of it. No
 * collection is emptied, so lists never see a hole, and the projectors' checkpoints are untouched.
 * A document written after the head is left to its newer event; run the verification again to see it.
 */
export class LiveReplacer {
  private pending: { readonly id: string; readonly document: ReadDocument | null }[] = [];

  constructor(
    private readonly store: ReadStore,
    private readonly collection: string,
    private readonly head: number,
  ) {}

  /** `document` null: the replay has none, so the live one goes. */
  async replace(id: string, document: ReadDocument | null): Promise<void> {
    this.pending.push({ id, document });
    if (this.pending.length >= 500) await this.flush();
  }

  async flush(): Promise<void> {
    const writes = this.pending.map(({ id, document }) => ({
      collection: this.collection,
      id,
      position: this.head + 0.5,
      evolve: () => document,
    }));
    this.pending = [];
    if (writes.length) await this.store.apply(writes, {});
  }
}
