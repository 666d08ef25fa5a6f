import { RecencyMap } from '../caching/recency-map';

interface Entry<V> {
  value: V;
  revision: number;
  bytes: number;
  measuredAt: number;
}

/**
 * What a cached state costs is estimated (`estimateBytes`: about its JSON length, computed without
 * recursion) when the entry is first stored and again whenever its stream has doubled since the
 * last measure. Between measures the figure is the last one, so a state growing with its stream is
 * under-counted by at most half, and measuring costs O(1) amortized per event folded. The heap a
 * state takes is a small, steady multiple of that length, so the budget bounds memory.
 *
 * Least recently used entries out first (`RecencyMap`), bounded by the sum of their estimated bytes
 * rather than their count: twenty thousand small API keys and a handful of long account folds weigh
 * what they hold. An entry larger than the whole budget is not kept.
 */
export class FoldCache<V extends { readonly state: unknown; readonly revision: number }> {
  private readonly entries = new RecencyMap<Entry<V>>();
  private total = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly measure: (state: unknown) => number = estimateBytes,
  ) {}

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  remember(key: string, value: V): void {
    const current = this.entries.peek(key);
    if (current && current.revision >= value.revision) return;
    const remeasure = !current || value.revision + 1 >= 2 * (current.measuredAt + 1);
    const bytes = remeasure ? this.measure(value.state) : current.bytes;
    if (bytes > this.maxBytes) return this.drop(key);
    this.total += bytes - (current?.bytes ?? 0);
    this.entries.set(key, {
      value,
      revision: value.revision,
      bytes,
      measuredAt: remeasure ? value.revision : current!.measuredAt,
    });
    for (let oldest = this.entries.oldest(); this.total > this.maxBytes; oldest = this.entries.oldest())
      this.drop(oldest!);
  }

  /** Estimated bytes held, for tests and the health figures. */
  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }

  private drop(key: string): void {
    const entry = this.entries.peek(key);
    if (!entry) return;
    this.total -= entry.bytes;
    this.entries.delete(key);
  }
}

/**
 * A state's size, cheaply and without recursion: about the length of its JSON (strings by length,
 * numbers and literals by a few characters, each member by its key). Shared nodes count once.
 */
export function estimateBytes(state: unknown): number {
  let bytes = 0;
  const seen = new Set<object>();
  const stack: unknown[] = [state];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === 'string') bytes += value.length + 2;
    else if (value === null || typeof value !== 'object') bytes += 6;
    else if (!seen.has(value)) {
      seen.add(value);
      bytes += 2;
      for (const [key, member] of Object.entries(value)) {
        bytes += key.length + 4;
        stack.push(member);
      }
    }
  }
  return bytes;
}
