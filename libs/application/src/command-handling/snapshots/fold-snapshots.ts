import { createHash } from 'node:crypto';
import { accountDecider } from '@app/domain/accounts';
import { cardDecider } from '@app/domain/cards';
import type { EventMetadata } from '@app/platform/event-store/event-store.port';
import type { StreamFolds } from '@app/platform/folds/stream-folds';
import { logger } from '@app/platform/logging/logger';
import { decodeState, encodeState } from './state-codec';

interface Folded {
  readonly state: unknown;
  readonly revision: number;
  readonly owner: EventMetadata | null;
}

/**
 * The deciders whose streams grow long (an account's money, a card's transactions), each with the
 * version of its state: raise it when `evolve` or the state's shape changes. The key also carries a
 * digest of `evolve`'s source, so even a forgotten bump never reads a snapshot an older evolve wrote.
 * A static table of the code (like a decider), filled as modules load; the snapshots themselves are
 * in the process's StreamFolds.
 */
const KEYS = new Map<object, string>();

/** Snapshot another decider's streams: a narrower fold of a long stream (the public account), or a test's decider. */
export function snapshotDecider(evolve: object, version: string): void {
  KEYS.set(evolve, `${version}:${createHash('sha256').update(String(evolve)).digest('hex').slice(0, 12)}`);
}

snapshotDecider(accountDecider.evolve, 'account:5');
snapshotDecider(cardDecider.evolve, 'card:3');

export const snapshotKey = (evolve: object): string | undefined => KEYS.get(evolve);

/** The latest snapshot of the stream for this evolve, as a fold to complete; undefined when none. */
export async function loadSnapshot(folds: StreamFolds, streamId: string, evolve: object): Promise<Folded | undefined> {
  const key = snapshotKey(evolve);
  const snapshots = folds.snapshots;
  if (!key || !snapshots) return undefined;
  try {
    const found = await snapshots.load(streamId, key);
    if (!found) return undefined;
    const { state, owner } = decodeState(found.state) as { state: unknown; owner: EventMetadata | null };
    return { state, owner, revision: found.revision };
  } catch (err) {
    // A snapshot is a cache: one that cannot be read costs a full fold, never a failed command.
    logger.warn({ err, streamId }, 'snapshot: could not load, folding from the start');
    return undefined;
  }
}

/** Saves the fold when the stream has crossed a multiple of SNAPSHOT_EVERY events since `previousRevision`. */
export function snapshotIfDue(
  folds: StreamFolds,
  streamId: string,
  evolve: object,
  previousRevision: number,
  folded: Folded,
): void {
  const { snapshots, snapshotEvery: every } = folds;
  const key = every && snapshots ? snapshotKey(evolve) : undefined;
  if (!key || Math.floor((previousRevision + 1) / every) === Math.floor((folded.revision + 1) / every)) return;
  const state = encodeState({ state: folded.state, owner: folded.owner });
  snapshots!
    .save({ streamId, key, revision: folded.revision, state })
    .catch((err) => logger.warn({ err, streamId }, 'snapshot: could not save'));
}
