import { SingleBar } from 'cli-progress';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import type { Projection } from '@app/platform/read-store/projection';
import type { ReadDocument, ReadStore } from '@app/platform/read-store/read-store.port';
import { differingIds, digestOf, liveDocuments } from './collection-digest';
import { checkLedger } from './ledger-check';
import { readLog, type ScratchStore } from './log-pass';
import { replaceDiffering } from './rebuild-live';
import { renderReport, type CollectionRow, type Finding } from './report';

export interface ReplayOptions {
  readonly verify: boolean;
  readonly rebuild: boolean;
  readonly organizationId?: string;
  /** Progress bar; off in tests. */
  readonly progress?: boolean;
}

export interface ReplayDeps {
  readonly events: EventStore;
  readonly readModels: ReadStore;
  readonly projections: readonly Projection[];
  readonly out: (line: string) => void;
}

/**
 * `npm run replay`: one pass over the log (chains, account folds, every projection into a scratch
 * store), then a digest per collection against the live read store and the ledger. Returns the
 * exit status: 1 on any difference, each named (stream and revision, or collection and id).
 */
export async function runReplay(deps: ReplayDeps, options: ReplayOptions): Promise<number> {
  const bar = options.progress ? new SingleBar({ format: 'replay [{bar}] {percentage}% | position {value}/{total}', stopOnComplete: true }) : null;
  const pass = await readLog(deps.events, deps.projections, {
    organizationId: options.organizationId,
    onProgress: (position, head) => (bar?.getTotal() ? bar.update(position) : bar?.start(head, position)),
  });
  bar?.stop();
  await waitForLive(deps, pass.head);
  const findings: Finding[] = pass.breaks.map((b) => ({ kind: 'chain', resource: `stream ${b.streamId} revision ${b.revision}`, message: b.reason === 'missing_revision' ? 'event missing' : 'hash does not match the event' }));
  const collections = await compareCollections(deps, pass.scratch, options, findings);
  const ledger = checkLedger(pass.accounts, pass.scratch.get('account_transactions')?.values() ?? []);
  findings.push(...ledger.differences.map((d) => ({ kind: 'ledger' as const, ...d })));
  renderReport(deps.out, { head: pass.head, events: pass.events, streams: pass.streams, collections, findings, totals: ledger.totals });
  return findings.length ? 1 : 0;
}

async function compareCollections(deps: ReplayDeps, scratch: ScratchStore, options: ReplayOptions, findings: Finding[]): Promise<CollectionRow[]> {
  const rows: CollectionRow[] = [];
  for (const collection of [...new Set(deps.projections.map((p) => p.collection))]) {
    const rebuiltDocs = ofOrganization([...(scratch.get(collection)?.values() ?? [])], options.organizationId);
    const rebuilt = digestOf(rebuiltDocs);
    let live = digestOf(await liveDocuments(deps.readModels, collection, options.organizationId));
    let differing = differingIds(rebuilt, live);
    if (differing.length && options.rebuild) {
      await replaceDiffering(deps.readModels, collection, differing, scratch.get(collection) ?? new Map(), await deps.events.headPosition());
      live = digestOf(await liveDocuments(deps.readModels, collection, options.organizationId));
      differing = differingIds(rebuilt, live);
    }
    for (const id of differing.slice(0, 20)) findings.push({ kind: 'read_model', resource: `${collection} ${id}`, message: describe(id, rebuilt.byId, live.byId) });
    rows.push({ collection, rebuilt: rebuilt.documents, live: live.documents, digest: rebuilt.digest, same: !differing.length });
  }
  return rows;
}

const describe = (id: string, rebuilt: Map<string, string>, live: Map<string, string>) =>
  !live.has(id) ? 'missing from the live read model' : !rebuilt.has(id) ? 'in the live read model, not in the replay' : 'differs from the replay';

function ofOrganization(documents: ReadDocument[], organizationId?: string): ReadDocument[] {
  return organizationId ? documents.filter((d) => d.organization_id === organizationId) : documents;
}

/** The live read models are compared once their projections include the head the replay read to. */
async function waitForLive(deps: ReplayDeps, head: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const projection of deps.projections) {
    while ((await deps.readModels.getCheckpoint(projection.name)) < head) {
      if (Date.now() > deadline) throw new Error(`read model ${projection.name} has not reached position ${head}: is a projector running?`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
