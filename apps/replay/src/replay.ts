import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SingleBar } from 'cli-progress';
import type { MovementFact } from '@app/domain/ledger';
import type { AuditCheckpointConfig } from '@app/platform/audit-checkpoints/audit-checkpoint-config';
import type { ChainBreak } from '@app/platform/event-store/hash-chain/chain-upcast';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import type { Projection } from '@app/platform/read-store/projection';
import type { ReadStore } from '@app/platform/read-store/read-store.port';
import { SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';
import { SqliteScratchMap } from '@app/platform/sqlite/scratch-map';
import { CheckpointCheck } from './checkpoint-check';
import { ascending, compareCollection, type Difference } from './collection-digest';
import { readLog } from './log-pass';
import { LiveReplacer } from './rebuild-live';
import { renderReport, type CollectionRow, type Finding } from './report';

export interface ReplayOptions {
  readonly verify: boolean;
  readonly rebuild: boolean;
  readonly organizationId?: string;
  /** Progress bar; off in tests. */
  readonly progress?: boolean;
  /** Where the scratch store's temporary directory is made (default: the OS temporary directory, `TMPDIR`). */
  readonly scratchParent?: string;
}

export interface ReplayDeps {
  readonly events: EventStore;
  readonly readModels: ReadStore;
  readonly projections: readonly Projection[];
  readonly out: (line: string) => void;
  /** Where the signed checkpoints are and the key that signed them (CHECKPOINT_DIR, AUDIT_SIGNING_KEY): the log is checked against the latest. */
  readonly checkpoints?: AuditCheckpointConfig;
}

/** Differences named per collection; the rest are counted. */
const NAMED_PER_COLLECTION = 20;

/**
 * `npm run replay`: one pass over the log (chains, the ledger at every position, every projection
 * into a scratch store on disk: the embedded SQLite read store in a temporary directory, deleted
 * at the end), then each collection compared with the live read store, both read in id order. It
 * streams: memory holds a batch of events, a page of documents per side, a chain link per stream
 * and the ledger's books (its movement facts are a table in the scratch directory). Returns the
 * exit status: 1 on any difference, each named (stream and revision, collection and id, or the
 * ledger transaction and its position).
 */
export async function runReplay(deps: ReplayDeps, options: ReplayOptions): Promise<number> {
  // Durations and the wait's bound below are measured with performance.now(), not the clock.
  const started = performance.now();
  const dir = mkdtempSync(join(options.scratchParent ?? tmpdir(), 'replay-scratch-'));
  const scratch = new SqliteReadStore(join(dir, 'read-models.db'));
  // The ledger fold's movement facts on disk: memory keeps the books, not every settled payout.
  const facts = new SqliteScratchMap<MovementFact>(join(dir, 'movement-facts.db'));
  let checkpoint: CheckpointCheck | undefined;
  try {
    // Read before the pass reads the head, so the checkpoint never covers more than the pass reads.
    checkpoint = deps.checkpoints ? CheckpointCheck.open(deps.checkpoints) : undefined;
    const bar = options.progress
      ? new SingleBar({ format: 'replay [{bar}] {percentage}% | position {value}/{total}', stopOnComplete: true })
      : null;
    const pass = await readLog(deps.events, deps.projections, scratch, {
      organizationId: options.organizationId,
      checkpoint,
      facts,
      onProgress: (position, head) => (bar?.getTotal() ? bar.update(position) : bar?.start(head, position)),
    });
    bar?.stop();
    await waitForLive(deps, pass.head);
    const findings: Finding[] = pass.breaks.map((b) => ({
      kind: 'chain',
      resource: `stream ${b.streamId} revision ${b.revision}`,
      message: chainMessage(b),
    }));
    findings.push(...(checkpoint?.findings() ?? []));
    const collections = await compareCollections(deps, scratch, pass.head, options, findings);
    for (const b of pass.ledger.breaks())
      findings.push({
        kind: 'ledger',
        resource: `transaction ${b.transactionId} at position ${b.position}`,
        message: b.message,
      });
    for (const b of await pass.ledger.projectedBalanceBreaks(ascending(scratch, 'accounts', options.organizationId)))
      findings.push({ kind: 'ledger', resource: `account ${b.account}`, message: b.message });
    renderReport(deps.out, {
      head: pass.head,
      events: pass.events,
      streams: pass.streams,
      passMs: pass.ms,
      totalMs: Math.round(performance.now() - started),
      collections,
      findings,
      ledger: pass.ledger.rows(),
      checkpoint: checkpoint?.status(),
    });
    return findings.length ? 1 : 0;
  } finally {
    checkpoint?.close();
    facts.close();
    await scratch.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function chainMessage(b: ChainBreak): string {
  if (b.reason === 'missing_revision') return 'event missing';
  if (b.reason === 'hash_missing')
    return `no hash, after the chain's start (revision ${b.chainStart} has one): an event older than chains cannot follow a hashed one`;
  return 'hash does not match the event';
}

async function compareCollections(
  deps: ReplayDeps,
  scratch: ReadStore,
  head: number,
  options: ReplayOptions,
  findings: Finding[],
): Promise<CollectionRow[]> {
  const rows: CollectionRow[] = [];
  for (const collection of [...new Set(deps.projections.map((p) => p.collection))]) {
    const compare = (onDifference: (d: Difference) => Promise<void> | void) =>
      compareCollection(scratch, deps.readModels, collection, options.organizationId, onDifference);
    const named: Difference[] = [];
    const name = (d: Difference) => void (named.length < NAMED_PER_COLLECTION && named.push(d));
    let result;
    if (options.rebuild) {
      const replacer = new LiveReplacer(deps.readModels, collection, head);
      result = await compare((d) => replacer.replace(d.id, d.rebuilt));
      await replacer.flush();
      // What is left after the replacement (documents written after the head keep their newer event).
      if (result.differing) result = await compare(name);
    } else {
      result = await compare(name);
    }
    for (const d of named) findings.push({ kind: 'read_model', resource: `${collection} ${d.id}`, message: d.message });
    if (result.differing > named.length)
      findings.push({
        kind: 'read_model',
        resource: collection,
        message: `${result.differing - named.length} more document(s) differ`,
      });
    rows.push({
      collection,
      rebuilt: result.rebuilt,
      live: result.live,
      digest: result.digest,
      same: !result.differing,
    });
  }
  return rows;
}

/** The live read models are compared once their projections include the head the replay read to. */
async function waitForLive(deps: ReplayDeps, head: number, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (const projection of deps.projections) {
    while ((await deps.readModels.getCheckpoint(projection.name)) < head) {
      if (performance.now() > deadline)
        throw new Error(`read model ${projection.name} has not reached position ${head}: is a projector running?`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
