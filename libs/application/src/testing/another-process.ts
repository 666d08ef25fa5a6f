import type { EventStore } from '@app/platform/event-store/event-store.port';
import { processFolds } from '@app/platform/folds/stream-folds';

/**
 * The same log as another process sees it: its own fold cache and command queue, so its commands
 * race `store`'s instead of queueing behind them; `readStream`, when given, stands in for the
 * log's (a read that lets another writer in between).
 */
export function anotherProcess<T extends EventStore>(store: T, readStream?: EventStore['readStream']): T {
  const folds = processFolds({ snapshots: store.folds?.snapshots, snapshotEvery: store.folds?.snapshotEvery });
  return new Proxy(store, {
    get: (target, key) =>
      key === 'folds' ? folds : key === 'readStream' && readStream ? readStream : (Reflect.get(target, key) as unknown),
  });
}
