import { balanceOf, evolveAccount, initialAccountState, type AccountEvent, type AccountState } from '@app/domain/accounts';
import type { EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import { ChainChecker, type ChainBreak } from '@app/platform/event-store/hash-chain/chain-upcast';
import { HashChainedEventStore } from '@app/platform/event-store/hash-chain/hash-chained-event-store';
import { upcast } from '@app/platform/event-store/upcasters';
import type { Projection } from '@app/platform/read-store/projection';
import { handlesEvent } from '@app/platform/read-store/projector';
import type { ReadDocument } from '@app/platform/read-store/read-store.port';

/** The scratch store: every read model rebuilt in memory, collection → id → document. */
export type ScratchStore = Map<string, Map<string, ReadDocument>>;

export interface LogPass {
  readonly head: number;
  readonly events: number;
  readonly streams: number;
  readonly breaks: ChainBreak[];
  readonly scratch: ScratchStore;
  /** Every account stream folded by the domain: the ledger's truth. */
  readonly accounts: Map<string, FoldedAccount>;
}

export interface FoldedAccount {
  readonly organizationId: string;
  readonly state: AccountState;
}

export interface PassOptions {
  readonly organizationId?: string;
  readonly batchSize?: number;
  onProgress?(position: number, head: number): void;
}

/**
 * One read of the log from position 0 to the head seen at the start: recomputes every stream's
 * hash chain (every stream, whatever the organization: a chain is only whole from revision 0),
 * folds every account stream, and replays every projection into the scratch store, as the projector
 * would. With an organization, only its events reach the projections and the ledger.
 */
export async function readLog(store: EventStore, projections: readonly Projection[], options: PassOptions = {}): Promise<LogPass> {
  // Chains are recomputed over the stored form; projections and folds read today's shape.
  const raw = store instanceof HashChainedEventStore ? store.inner : store;
  const head = await raw.headPosition();
  const chains = new Map<string, ChainChecker>();
  const pass: LogPass = { head, events: 0, streams: 0, breaks: [], scratch: new Map(), accounts: new Map() };
  let count = 0;
  for (let after = 0; after < head; ) {
    const batch = await raw.readAll({ after, limit: options.batchSize ?? 2000 });
    if (!batch.length) break;
    for (const event of batch) {
      if (event.position > head) break;
      checkChain(chains, event, pass.breaks);
      if (!options.organizationId || event.metadata.organization_id === options.organizationId) {
        const current = upcast(event);
        project(pass.scratch, projections, current);
        foldAccount(pass.accounts, current);
      }
      count += 1;
    }
    after = batch[batch.length - 1].position;
    options.onProgress?.(Math.min(after, head), head);
  }
  return { ...pass, events: count, streams: chains.size };
}

function checkChain(chains: Map<string, ChainChecker>, event: RecordedEvent, breaks: ChainBreak[]): void {
  let checker = chains.get(event.streamId);
  if (!checker) chains.set(event.streamId, (checker = new ChainChecker(event.streamId)));
  const broken = checker.check(event);
  if (broken) breaks.push(broken);
}

export function project(scratch: ScratchStore, projections: readonly Projection[], event: RecordedEvent): void {
  for (const projection of projections) {
    if (!handlesEvent(projection, event)) continue;
    let collection = scratch.get(projection.collection);
    if (!collection) scratch.set(projection.collection, (collection = new Map()));
    for (const id of projection.documentIds(event)) {
      const next = projection.evolve(collection.get(id) ?? null, event);
      if (next) collection.set(id, next);
      else collection.delete(id);
    }
  }
}

function foldAccount(accounts: Map<string, FoldedAccount>, event: RecordedEvent): void {
  if (!event.streamId.startsWith('account-acc_')) return;
  const id = event.streamId.slice('account-'.length);
  const known = accounts.get(id);
  const state = evolveAccount(known?.state ?? initialAccountState, event as unknown as AccountEvent);
  accounts.set(id, { organizationId: known?.organizationId ?? event.metadata.organization_id, state });
}

export const accountBalance = (state: AccountState) => (state.status === 'none' ? null : balanceOf(state));
