import fc from 'fast-check';
import { RecencyMap } from './recency-map';

/** A cache of `capacity` keys over the map, evicting its oldest, as the process's caches do. */
function bounded(capacity: number) {
  const map = new RecencyMap<number>();
  const evicted: string[] = [];
  return {
    map,
    evicted,
    set(key: string, value: number) {
      map.set(key, value);
      if (map.size > capacity) {
        const oldest = map.oldest()!;
        map.delete(oldest);
        evicted.push(oldest);
      }
    },
  };
}

describe('RecencyMap: least recently used first, without re-inserting on every use', () => {
  it('moves a used key that had drifted into the older half, so the next oldest goes first', () => {
    const cache = bounded(3);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.map.get('a')).toBe(1);
    cache.set('d', 4);
    expect(cache.evicted).toEqual(['b']);
    expect(['a', 'c', 'd'].map((k) => cache.map.has(k))).toEqual([true, true, true]);
  });

  it('peek reads without marking the key used', () => {
    const cache = bounded(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.map.peek('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.evicted).toEqual(['a']);
    expect(cache.map.peek('a')).toBeUndefined();
  });

  it('set on a stored key replaces its value and marks it used', () => {
    const cache = bounded(3);
    for (const k of ['a', 'b', 'c']) cache.set(k, 0);
    cache.set('a', 9);
    cache.set('d', 0);
    expect(cache.map.peek('a')).toBe(9);
    expect(cache.evicted).toEqual(['b']);
  });

  it('leaves a key in the newer half where it is: no move, and it is not the next to go', () => {
    const map = new RecencyMap<number>();
    for (let i = 0; i < 10; i++) map.set(`k${i}`, i);
    map.get('k8');
    expect(map.oldest()).toBe('k0');
    map.get('k0');
    expect(map.oldest()).toBe('k1');
  });

  // The guarantee the caches rely on, whatever the sequence: a used key (got or set) is not evicted
  // before half the capacity of further operations on other keys (true LRU: the whole capacity).
  it('a used key outlives at least half the capacity of later uses of other keys', () => {
    const op = fc.record({
      kind: fc.constantFrom('set', 'set', 'get', 'get', 'delete'),
      key: fc.integer({ min: 0, max: 30 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 16 }),
        fc.array(op, { minLength: 100, maxLength: 400 }),
        (capacity, ops) => {
          const cache = bounded(capacity);
          const lastUse = new Map<string, number>();
          let done = 0;
          for (const { kind, key } of ops) {
            const k = `k${key}`;
            if (kind === 'get' && !cache.map.has(k)) continue;
            done++;
            if (kind === 'delete') {
              cache.map.delete(k);
              lastUse.delete(k);
              continue;
            }
            if (kind === 'get') cache.map.get(k);
            else cache.set(k, key);
            lastUse.set(k, done);
            for (const gone of cache.evicted.splice(0)) {
              expect(done - lastUse.get(gone)!).toBeGreaterThanOrEqual(Math.floor(capacity / 2));
              lastUse.delete(gone);
            }
          }
        },
      ),
    );
  });
});
