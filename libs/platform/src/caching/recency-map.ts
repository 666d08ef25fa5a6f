interface Slot<V> {
  value: V;
  /** The map's count of (re)insertions when this key was last moved to the newest end. */
  stamp: number;
}

/**
 * A Map kept in least-recently-used order, cheaply: the bounded caches of a process (folds, stream
 * ends, hash-chain tails, the webhook directory) evict from its oldest end.
 *
 * Keeping a Map in that order by re-inserting a key on every use costs: each delete leaves a hole
 * that V8 reclaims by rehashing the whole table, about 0.5 µs per use at 10,000 keys, twenty times a
 * lookup (issue 28, measured). So a key used while it is in the newer half of the order stays where
 * it is, and only a key that has drifted into the older half is moved: a used key then outlives at
 * least half as many further uses of other keys as exact LRU order would give it (the unit spec's
 * property), and a hot key is moved about once per half the map's size of insertions.
 */
export class RecencyMap<V> {
  private readonly slots = new Map<string, Slot<V>>();
  private insertions = 0;

  /** The value, marked recently used. */
  get(key: string): V | undefined {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    this.touch(key, slot);
    return slot.value;
  }

  /** The value, leaving its recency as it was. */
  peek(key: string): V | undefined {
    return this.slots.get(key)?.value;
  }

  has(key: string): boolean {
    return this.slots.has(key);
  }

  /** Stores the value, marked recently used. */
  set(key: string, value: V): void {
    const slot = this.slots.get(key);
    if (!slot) {
      this.slots.set(key, { value, stamp: this.insertions++ });
      return;
    }
    slot.value = value;
    this.touch(key, slot);
  }

  delete(key: string): boolean {
    return this.slots.delete(key);
  }

  /** The least recently used key, the first to evict. */
  oldest(): string | undefined {
    return this.slots.keys().next().value;
  }

  get size(): number {
    return this.slots.size;
  }

  private touch(key: string, slot: Slot<V>): void {
    // Fewer (re)insertions since its stamp than half the size: fewer keys than that are newer.
    if (this.insertions - slot.stamp < this.slots.size / 2) return;
    this.slots.delete(key);
    slot.stamp = this.insertions++;
    this.slots.set(key, slot);
  }
}
