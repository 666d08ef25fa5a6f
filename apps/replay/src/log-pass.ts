import type { EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import { ChainChecker, type ChainBreak } from '@app/platform/event-store/hash-chain/chain-upcast';
import { HashChainedEventStore } from '@app/platform/event-store/hash-chain/hash-chained-event-store';
import { upcast } from '@app/platform/event-store/upcasters';
import type { MovementContext } from '@app/domain/ledger';
import { BatchWrites } from '@app/platform/read-store/batch-writes';
import type { Projection } from '@app/platform/read-store/projection';
import { handlesEvent } from '@app/platform/read-store/projector';
import type { ReadDocument, ReadStore } from '@app/platform/read-store/read-store.port';
import type { CheckpointCheck } from './checkpoint-check';
import { LedgerCheck } from './ledger-check';

export interface LogPass {
  readonly head: number;
  readonly events: number;
  readonly streams: number;
  readonly breaks: ChainBreak[];
  readonly ledger: LedgerCheck;
  /** Wall time of the pass (read, chains, ledger, projections into the scratch store), in ms. */
  readonly ms: number;
}

export interface PassOptions {
  readonly organizationId?: string;
  /** Events read, and projected into the scratch store in one transaction, at a time. */
  readonly batchSize?: number;
  /** The log against the latest signed checkpoint: every event, with its chain hash, in position order. */
  readonly checkpoint?: CheckpointCheck;
  /** Where the ledger fold keeps its movement facts (default: in memory). */
  readonly facts?: MovementContext;
  onProgress?(position: number, head: number): void;
}

/**
 * One read of the log from position 0 to the head seen at the start, a batch at a time, so memory
 * holds one batch of events, one chain link per stream and the ledger, never the read models:
 * recomputes every stream's hash chain (every stream, whatever the organization: a chain is only
 * whole from revision 0), folds every event into the ledger (its context is global), and replays
 * every projection into `scratch` as the projector does (the same position-guarded writes, one
 * `apply` per batch). With an organization, only its events reach the projections.
 */
export async function readLog(
  store: EventStore,
  projections: readonly Projection[],
  scratch: ReadStore,
  options: PassOptions = {},
): Promise<LogPass> {
  // How long the pass took (a duration: performance.now(), not the clock).
  const started = performance.now();
  // Chains are recomputed over the stored form; projections and the ledger read today's shape.
  const raw = store instanceof HashChainedEventStore ? store.inner : store;
  const head = await raw.headPosition();
  const chains = new Map<string, ChainChecker>();
  const breaks: ChainBreak[] = [];
  const ledger = new LedgerCheck(options.organizationId, options.facts);
  let count = 0;
  let last = 0;
  for (let after = 0; after < head;) {
    const batch = await raw.readAll({ after, limit: options.batchSize ?? 2000 });
    if (!batch.length) break;
    const planned = new BatchWrites(scratch);
    for (const event of batch) {
      if (event.position > head) break;
      const chainHash = checkChain(chains, event, breaks);
      options.checkpoint?.fold(event, chainHash);
      const current = upcast(event);
      ledger.fold(current);
      last = event.position;
      if (!options.organizationId || event.metadata.organization_id === options.organizationId) {
        for (const projection of projections)
          if (handlesEvent(projection, current)) await planned.add(projection, current);
      }
      count += 1;
    }
    await scratch.apply(planned.writes, {});
    after = batch[batch.length - 1].position;
    options.onProgress?.(Math.min(after, head), head);
    // The SQLite adapters answer synchronously: without this, a pass in microtasks alone would
    // starve timers and signals (Ctrl-C) until the end of the log.
    await new Promise((resolve) => setImmediate(resolve));
  }
  options.checkpoint?.end(new Set(chains.keys()), last);
  return { head, events: count, streams: chains.size, breaks, ledger, ms: Math.round(performance.now() - started) };
}

/** Checks the event's link in its stream's chain; returns its chain hash (stored, or upcast for an event older than chains). */
function checkChain(chains: Map<string, ChainChecker>, event: RecordedEvent, breaks: ChainBreak[]): string {
  let checker = chains.get(event.streamId);
  if (!checker) chains.set(event.streamId, (checker = new ChainChecker(event.streamId)));
  const broken = checker.check(event);
  if (broken) breaks.push(broken);
  return checker.hash;
}

/** Read models folded in memory, collection → id → document: for small logs (the checked-in fixtures' tests). */
export type ScratchStore = Map<string, Map<string, ReadDocument>>;

/**
 * One event through every document projection into an in-memory store (the fixtures' tests fold a
 * whole small log this way). Planned projections (the ledger) read their store as they plan: they
 * are checked by `readLog` and `replay --verify`, which the fixture tests run too.
 */
export function project(scratch: ScratchStore, projections: readonly Projection[], event: RecordedEvent): void {
  for (const projection of projections) {
    if (projection.plan || !handlesEvent(projection, event)) continue;
    let collection = scratch.get(projection.collection);
    if (!collection) scratch.set(projection.collection, (collection = new Map()));
    for (const id of projection.documentIds(event)) {
      const next = projection.evolve(collection.get(id) ?? null, event);
      if (next) collection.set(id, next);
      else collection.delete(id);
    }
  }
}
