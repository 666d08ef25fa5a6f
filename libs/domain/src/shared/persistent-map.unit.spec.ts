import fc from 'fast-check';
import { emptyMap, entries, get, remove, set, type PersistentMap } from './persistent-map';

type Op = { readonly put: boolean; readonly key: string; readonly value: number };

// Few distinct keys, so sets and removes meet; long ones too, so the trie goes several levels deep.
const key = fc.oneof(
  fc.constantFrom('a', 'b', 'c', 'trf_1', 'trf_2', ''),
  fc.string({ maxLength: 6 }),
  fc.integer({ min: 0, max: 5_000 }).map((n) => `hold_${n}`),
);
const ops = fc.array(fc.record({ put: fc.boolean(), key, value: fc.integer() }), { maxLength: 300 });

const apply = (map: PersistentMap<number>, op: Op) => (op.put ? set(map, op.key, op.value) : remove(map, op.key));

describe('PersistentMap', () => {
  it('answers as a Map after any sequence of sets and removes, and leaves every earlier version as it was', () => {
    fc.assert(
      fc.property(ops, (sequence) => {
        const model = new Map<string, number>();
        let map = emptyMap<number>();
        const versions: [PersistentMap<number>, string][] = [];
        for (const op of sequence) {
          versions.push([map, JSON.stringify(map)]);
          map = apply(map, op);
          if (op.put) model.set(op.key, op.value);
          else model.delete(op.key);
          expect(get(map, op.key)).toBe(model.get(op.key));
        }
        expect(map.size).toBe(model.size);
        expect(new Map(entries(map))).toEqual(model);
        for (const [version, text] of versions) expect(JSON.stringify(version)).toBe(text);
      }),
    );
  });

  it('has one shape for the same entries, whatever the order they came and went in', () => {
    fc.assert(
      fc.property(ops, (sequence) => {
        const map = sequence.reduce(apply, emptyMap<number>());
        const fresh = [...entries(map)]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .reduce((m, [k, v]) => set(m, k, v), emptyMap<number>());
        expect(map).toEqual(fresh);
      }),
    );
  });

  it('keeps keys whose hashes collide in every bit, and many keys at once', () => {
    // k32728 and k261234 (and k32729, k261235) have the same FNV-1a hash: they share a bucket.
    let map = emptyMap<number>();
    for (const k of ['k32728', 'k261234', 'k32729', 'k261235']) map = set(map, k, k.length);
    expect([get(map, 'k32728'), get(map, 'k261234'), map.size]).toEqual([6, 7, 4]);
    map = remove(map, 'k261234');
    expect([get(map, 'k32728'), get(map, 'k261234'), map.size]).toEqual([6, undefined, 3]);
    expect(map).toEqual(['k32728', 'k32729', 'k261235'].reduce((m, k) => set(m, k, k.length), emptyMap<number>()));
    for (let i = 0; i < 20_000; i++) map = set(map, `n${i}`, i);
    for (let i = 0; i < 20_000; i += 2) map = remove(map, `n${i}`);
    expect([map.size, get(map, 'n1'), get(map, 'n2')]).toEqual([10_003, 1, undefined]);
  });
});
