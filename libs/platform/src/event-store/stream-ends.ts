import { RecencyMap } from '../caching/recency-map';

/** How many streams' ends are kept: an entry is a stream id and a number, about 1 MB in all (issue 26: every cache bounded). */
const DEFAULT_CAPACITY = 10_000;

/**
 * The last revision of recently used streams, as the log's one writer knows it (issue 28). Under
 * `npm start` the API commits every append of the log, its worker's included (the worker commits
 * through it: parent-process-writer.ts), so after its own append or read it knows where a stream
 * ends. A command's fold is cached at that end, and its read "from the next revision" found nothing
 * eight times per payout: a SQLite query each, a tenth of the API's CPU. Those reads are answered
 * here instead.
 *
 * Sound only while no other process appends to the file: the store keeps ends only when its
 * composition says it is the one writer (`SqliteEventStore.trustStreamEnds`). Streams only grow,
 * so an end is only ever raised; a conflict (someone else wrote after all) forgets the stream, and
 * the command that met it folds again from the database.
 */
export class StreamEnds {
  private readonly ends = new RecencyMap<number>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /**
   * The stream's last revision (-1: it has none) as this process last saw it, or undefined. Marked
   * used: a stream read on every request and never written (an API key's) must stay known while
   * thousands of new streams are raised, for a read that found nothing teaches nothing again.
   */
  get(streamId: string): number | undefined {
    return this.ends.get(streamId);
  }

  /** At least `revision`: a read that raced an append never lowers what the append set. */
  raise(streamId: string, revision: number): void {
    const known = this.ends.peek(streamId);
    if (known !== undefined && known >= revision) return;
    this.ends.set(streamId, revision);
    if (this.ends.size > this.capacity) this.ends.delete(this.ends.oldest()!);
  }

  /**
   * What a read of the stream from `from` found says of its end: one that found events and reached
   * the end (no limit, or fewer than it), or a whole read from the start that found none.
   */
  learnFromRead(
    streamId: string,
    from: number,
    maxCount: number | undefined,
    events: readonly { revision: number }[],
  ): void {
    if ((maxCount === undefined || events.length < maxCount) && (events.length || from === 0))
      this.raise(streamId, events.length ? events[events.length - 1].revision : -1);
  }

  forget(streamId: string): void {
    this.ends.delete(streamId);
  }

  get size(): number {
    return this.ends.size;
  }
}
