/**
 * A persistent map from string keys (a hash array mapped trie, 32 ways per level): `set` and
 * `remove` return a new map and copy only the path to the key (at most 7 nodes of up to 32 slots),
 * so adding or closing one entry costs O(log32 n) however many are in it, and every earlier map
 * stays valid and unchanged. Folded states are shared between readers (the fold cache), so they
 * are never mutated in place; copying a record per event made a fold quadratic in its size.
 *
 * Built of plain objects and arrays only, so a state holding one is plain JSON: the snapshot codec
 * writes it without recursion and structural sharing survives, and a decoded map is a map.
 * Canonical: the same entries give the same shape, whatever the order they came and went in.
 */
export interface PersistentMap<V> {
  readonly size: number;
  readonly root: MapNode<V>;
}

interface Entry<V> {
  readonly k: string;
  readonly v: V;
}
/** `b`: which of the 32 slots are used; `s`: the used ones in slot order. */
interface MapNode<V> {
  readonly b: number;
  readonly s: readonly Slot<V>[];
}
/** Keys whose 32-bit hashes are equal, past the last level. */
interface Bucket<V> {
  readonly c: readonly Entry<V>[];
}
type Slot<V> = Entry<V> | MapNode<V> | Bucket<V>;

const BITS = 5;
const LAST_SHIFT = 30;

export const emptyMap = <V>(): PersistentMap<V> => ({ size: 0, root: { b: 0, s: [] } });

const isEntry = <V>(slot: Slot<V>): slot is Entry<V> => 'k' in slot;
const isNode = <V>(slot: Slot<V>): slot is MapNode<V> => 's' in slot;

/** FNV-1a over UTF-16 code units: pure and stable across processes (snapshots depend on it). */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const bitOf = (h: number, shift: number) => 1 << ((h >>> shift) & 31);
const indexOf = (bitmap: number, bit: number) => popcount(bitmap & (bit - 1));

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export function get<V>(map: PersistentMap<V>, key: string): V | undefined {
  const h = hash(key);
  let slot: Slot<V> = map.root;
  for (let shift = 0; ; shift += BITS) {
    if (isEntry(slot)) return slot.k === key ? slot.v : undefined;
    if (!isNode(slot)) return slot.c.find((e) => e.k === key)?.v;
    const bit = bitOf(h, shift);
    if (!(slot.b & bit)) return undefined;
    slot = slot.s[indexOf(slot.b, bit)];
  }
}

export const has = <V>(map: PersistentMap<V>, key: string): boolean => get(map, key) !== undefined;

const replaced = <T>(items: readonly T[], i: number, item: T) => [...items.slice(0, i), item, ...items.slice(i + 1)];

/** A node (or, past the last level, a bucket) holding two entries whose keys differ. */
function pair<V>(a: Entry<V>, b: Entry<V>, shift: number): Slot<V> {
  if (shift > LAST_SHIFT) return { c: [a, b] };
  const ha = hash(a.k);
  const hb = hash(b.k);
  const bitA = bitOf(ha, shift);
  const bitB = bitOf(hb, shift);
  if (bitA === bitB) return { b: bitA, s: [pair(a, b, shift + BITS)] };
  return { b: bitA | bitB, s: bitA >>> 0 < bitB >>> 0 ? [a, b] : [b, a] };
}

function insert<V>(slot: Slot<V>, entry: Entry<V>, h: number, shift: number): { slot: Slot<V>; added: boolean } {
  if (isEntry(slot))
    return slot.k === entry.k ? { slot: entry, added: false } : { slot: pair(slot, entry, shift), added: true };
  if (!isNode(slot)) {
    const i = slot.c.findIndex((e) => e.k === entry.k);
    return i < 0
      ? { slot: { c: [...slot.c, entry] }, added: true }
      : { slot: { c: replaced(slot.c, i, entry) }, added: false };
  }
  const bit = bitOf(h, shift);
  const i = indexOf(slot.b, bit);
  if (!(slot.b & bit))
    return { slot: { b: slot.b | bit, s: [...slot.s.slice(0, i), entry, ...slot.s.slice(i)] }, added: true };
  const below = insert(slot.s[i], entry, h, shift + BITS);
  return { slot: { b: slot.b, s: replaced(slot.s, i, below.slot) }, added: below.added };
}

export function set<V>(map: PersistentMap<V>, key: string, value: V): PersistentMap<V> {
  const { slot, added } = insert(map.root, { k: key, v: value }, hash(key), 0);
  return { size: map.size + (added ? 1 : 0), root: slot as MapNode<V> };
}

/** The slot without the key: undefined when the key is absent, null when nothing is left of it. */
function erase<V>(slot: Slot<V>, key: string, h: number, shift: number): Slot<V> | null | undefined {
  if (isEntry(slot)) return slot.k === key ? null : undefined;
  if (!isNode(slot)) {
    const rest = slot.c.filter((e) => e.k !== key);
    if (rest.length === slot.c.length) return undefined;
    return rest.length === 1 ? rest[0] : { c: rest };
  }
  const bit = bitOf(h, shift);
  if (!(slot.b & bit)) return undefined;
  const i = indexOf(slot.b, bit);
  const below = erase(slot.s[i], key, h, shift + BITS);
  if (below === undefined) return undefined;
  if (below === null) {
    const s = [...slot.s.slice(0, i), ...slot.s.slice(i + 1)];
    // A lone entry moves up into its parent (canonical shape); the root stays a node.
    if (shift > 0 && s.length === 1 && isEntry(s[0])) return s[0];
    return s.length === 0 && shift > 0 ? null : { b: slot.b & ~bit, s };
  }
  if (shift > 0 && slot.s.length === 1 && isEntry(below)) return below;
  return { b: slot.b, s: replaced(slot.s, i, below) };
}

export function remove<V>(map: PersistentMap<V>, key: string): PersistentMap<V> {
  const root = erase(map.root, key, hash(key), 0);
  return root === undefined ? map : { size: map.size - 1, root: root as MapNode<V> };
}

/** Every entry, in no particular order, without recursion (for codecs, audits and tests). */
export function* entries<V>(map: PersistentMap<V>): Generator<[string, V]> {
  const stack: Slot<V>[] = [map.root];
  while (stack.length) {
    const slot = stack.pop()!;
    if (isEntry(slot)) yield [slot.k, slot.v];
    else if (isNode(slot)) stack.push(...slot.s);
    else for (const e of slot.c) yield [e.k, e.v];
  }
}

export const values = <V>(map: PersistentMap<V>): V[] => Array.from(entries(map), ([, v]) => v);
