import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type Position,
  type ResolvedEvent,
} from '@eventstore/db-client';
import {
  AppendResult,
  EventMetadata,
  EventStore,
  EventToAppend,
  ExpectedRevision,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
  WrongExpectedRevisionError,
} from './event-store.port';
import { pointInTime, withinPoint } from './point-in-time';

/**
 * EventStoreDB adapter. `position` is the commit position in the transaction file as a Number, on
 * $all reads and stream reads alike (readStreamPosition):
 * exact up to 2^53 bytes of log (8 PiB), far beyond a node's size. Plain appends get
 * prepare == commit, which lets a stored Number be turned back into a read position.
 * System events (`$`-prefixed types: stats, metadata, links) are not part of our log.
 */
export class EsdbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;

  constructor(connectionString: string) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  async append(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const data = events.map((e) =>
      jsonEvent({
        id: toUuid(e.metadata.event_id),
        type: e.type,
        data: e.data as never,
        metadata: e.metadata as never,
      }),
    );
    try {
      const result = await this.client.appendToStream(streamId, data, { expectedRevision: toEsdbRevision(expected) });
      return {
        nextExpectedRevision: Number(result.nextExpectedRevision),
        position: Number(result.position?.commit ?? 0n),
      };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualVersion;
        throw new WrongExpectedRevisionError(
          streamId,
          expected,
          typeof actual === 'bigint' ? Number(actual) : 'no_stream',
        );
      }
      throw error;
    }
  }

  /**
   * Each event comes with its global position (the port's contract): the commit position the
   * server gives a stream read, on the recorded event or on the resolved one (readStreamPosition).
   */
  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    const fromRevision = options.fromRevision ? BigInt(options.fromRevision) : START;
    const point = pointInTime();
    try {
      const maxCount = options.maxCount === undefined ? undefined : BigInt(options.maxCount);
      for await (const resolved of this.client.readStream(streamId, {
        direction: FORWARDS,
        fromRevision,
        ...(maxCount === undefined ? {} : { maxCount }),
      })) {
        if (!isOurs(resolved)) continue;
        const event = toRecorded(resolved, readStreamPosition(resolved))!;
        // Inside an `as_of` read the stream ends at the point: nothing after it is read.
        if (point && !withinPoint(event, point)) break;
        events.push(event);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  /**
   * `maxCount` counts system events too, so a page can come back short while our events lie
   * beyond it; keep reading until the page is full or the log ends, because callers stop at [].
   */
  async readAll(options: { after?: number; limit?: number } = {}): Promise<RecordedEvent[]> {
    const limit = options.limit ?? 1000;
    const events: RecordedEvent[] = [];
    let after = options.after ?? 0;
    for (;;) {
      let seen = 0;
      const read = this.client.readAll({ direction: FORWARDS, fromPosition: fromPosition(after), maxCount: limit + 1 });
      for await (const resolved of read) {
        seen += 1;
        const commit = Number(resolved.event?.position.commit ?? -1);
        // Reading from a position includes the event at it; the port reads strictly after.
        if (commit <= after) continue;
        after = commit;
        const event = toRecorded(resolved);
        if (event) events.push(event);
        if (events.length === limit) {
          await read.cancel();
          return events;
        }
      }
      if (seen < limit + 1) return events;
    }
  }

  /** The tail of $all is often a system event (stats are written every few seconds), so skip those. */
  async headPosition(): Promise<number> {
    let from: Position | typeof END = END;
    for (;;) {
      let seen = 0;
      for await (const resolved of this.client.readAll({ direction: BACKWARDS, fromPosition: from, maxCount: 64 })) {
        seen += 1;
        if (resolved.event && !isSystem(resolved.event.type)) return Number(resolved.event.position.commit);
        if (resolved.event) from = resolved.event.position;
      }
      if (seen < 64) return 0;
    }
  }

  subscribeToAll(options: SubscribeOptions, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    const after = options.after ?? 0;
    const subscription = this.client.subscribeToAll({
      fromPosition: fromPosition(after),
      filter: excludeSystemEvents(),
    });
    let stopped = false;
    const loop = (async () => {
      // Async iteration pulls one event at a time, so the handler never runs concurrently.
      for await (const resolved of subscription) {
        if (stopped) return;
        const event = toRecorded(resolved);
        if (event && event.position > after) await handler(event);
      }
    })().catch((error) => {
      if (stopped) return;
      stopped = true;
      void subscription.unsubscribe();
      if (options.onError) options.onError(error);
      else console.error('subscription stopped', error);
    });
    return {
      async stop() {
        stopped = true;
        await subscription.unsubscribe();
        await loop;
      },
    };
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}

function fromPosition(after: number): Position | typeof START {
  if (after <= 0) return START;
  const commit = BigInt(after);
  return { commit, prepare: commit };
}

function toEsdbRevision(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'stream_exists') return STREAM_EXISTS;
  if (expected === 'any') return ANY;
  return BigInt(expected);
}

/** A commit position as the port's number, or null when absent or the "no position" marker (2^64-1, or anything past 2^53). */
function commitOf(commit: bigint | undefined): number | null {
  return commit === undefined || commit < 0n || commit > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(commit);
}

/**
 * The global position of an event read from its stream. EventStoreDB 22.6 and later put the $all
 * commit position on stream reads over gRPC (kurrent-io/KurrentDB#3459): on the recorded event
 * (`event.position.commit`) and on the resolved event (`commitPosition`, the ReadEvent's
 * `commit_position`). Older servers send 2^64-1 ("no position"), and so does any server for an
 * event written in an explicit transaction, which this adapter never writes. (Streams are read
 * without resolveLinkTos: our streams hold events, never links.) Positions on stream reads are part
 * of the port's contract (as_of, history, the webhook router and the checkpoint leaves rely on
 * them), so a server that gives none is refused loudly rather than read as position 0.
 */
export function readStreamPosition(resolved: Pick<ResolvedEvent, 'event' | 'commitPosition'>): number {
  const position = commitOf(resolved.event?.position?.commit) ?? commitOf(resolved.commitPosition);
  if (position === null) {
    const where = resolved.event ? `${resolved.event.streamId}@${resolved.event.revision}` : 'an event';
    throw new Error(
      `EventStoreDB gave no commit position for ${where} on a stream read: the event store's contract needs one (EventStoreDB 22.6 or later over gRPC)`,
    );
  }
  return position;
}

function isSystem(type: string): boolean {
  return type.startsWith('$');
}

/** An event of our log: not a system event, JSON. */
function isOurs(resolved: ResolvedEvent | AllStreamResolvedEvent): boolean {
  return !!resolved.event && !isSystem(resolved.event.type) && resolved.event.isJson;
}

/** `position`: the event's global position, when read from its stream; $all reads carry their own. */
function toRecorded(resolved: ResolvedEvent | AllStreamResolvedEvent, position?: number): RecordedEvent | null {
  const event = resolved.event;
  if (!event || !isOurs(resolved)) return null;
  const metadata = event.metadata as unknown as EventMetadata;
  return {
    id: metadata.event_id ?? event.id,
    streamId: event.streamId,
    type: event.type,
    data: event.data as Record<string, unknown>,
    metadata,
    revision: Number(event.revision),
    position: position ?? commitOf(event.position?.commit) ?? 0,
  };
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** EventStoreDB ids are UUIDs; a ULID is the same 128 bits, so it maps onto one losslessly. */
export function toUuid(id: string): string {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return id.toLowerCase();
  if (!/^[0-9A-HJKMNP-TV-Z]{26}$/i.test(id)) throw new Error(`event id ${id} is neither a ULID nor a UUID`);
  let value = 0n;
  for (const char of id.toUpperCase()) value = value * 32n + BigInt(CROCKFORD.indexOf(char));
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
