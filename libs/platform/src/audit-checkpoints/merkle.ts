import { createHash } from 'node:crypto';

/**
 * The Merkle tree of Certificate Transparency (RFC 6962 §2.1, RFC 9162 §2.1) over the event log:
 * one leaf per event, in global position order. Leaf and interior hashes are domain-separated
 * (0x00 before a leaf's input, 0x01 before two child hashes), so a leaf can never be passed off as
 * an interior node. examples/verify-proof.mjs repeats these few functions without any dependency,
 * so an auditor can check a proof offline; the two must agree byte for byte.
 */

/** What one leaf commits to: where the event is in the log, and its stream's chain hash (decisions §10). */
export interface AuditLeaf {
  /** The event's global position. */
  readonly position: number;
  readonly stream_id: string;
  /** 0-based revision in its stream. */
  readonly revision: number;
  /** `metadata.hash`: the SHA-256 chain hash of the event and every earlier event of its stream (lowercase hex). */
  readonly hash: string;
}

/**
 * A leaf's input: canonical JSON (keys sorted, no whitespace) of its four fields. JSON, not a
 * bespoke byte layout, so any language rebuilds it with its standard library; the keys are written
 * in sorted order here, which is what canonicalJson would produce.
 */
export function leafInput(leaf: AuditLeaf): string {
  return JSON.stringify({
    hash: leaf.hash,
    position: leaf.position,
    revision: leaf.revision,
    stream_id: leaf.stream_id,
  });
}

/** SHA-256(0x00 || leaf input). */
export function leafHash(leaf: AuditLeaf): Buffer {
  return createHash('sha256').update(Buffer.of(0)).update(leafInput(leaf), 'utf8').digest();
}

/** SHA-256(0x01 || left || right). */
export function nodeHash(left: Buffer, right: Buffer): Buffer {
  return createHash('sha256').update(Buffer.of(1)).update(left).update(right).digest();
}

/** The root of the empty tree: SHA-256 of nothing (RFC 6962 §2.1). */
export const EMPTY_ROOT = createHash('sha256').digest();

/** The largest power of two strictly below `n` (n ≥ 2): where RFC 6962 splits a tree of n leaves. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** `n` is a power of two (1, 2, 4, …). */
const isPowerOfTwo = (n: number) => n > 0 && 2 ** Math.round(Math.log2(n)) === n;

/** The levels of the perfect subtrees a tree of `size` leaves decomposes into, left to right (the set bits, highest first). */
export function frontierLevels(size: number): number[] {
  const levels: number[] = [];
  for (let level = Math.floor(Math.log2(Math.max(size, 1))) + 1; level >= 0; level--)
    if (Math.floor(size / 2 ** level) % 2 === 1) levels.push(level);
  return levels;
}

/**
 * The compact range of a tree: the roots of the perfect subtrees its leaves decompose into, left
 * to right (one per set bit of the size, so O(log n) hashes). Appending a leaf merges equal-sized
 * neighbours; the root folds them right to left, which is exactly RFC 6962's MTH. This is what a
 * checkpoint persists beside its signed root, so the next checkpoint reads only new events.
 */
export class CompactRange {
  private constructor(
    private sizeValue: number,
    private readonly hashes: Buffer[],
  ) {}

  static empty(): CompactRange {
    return new CompactRange(0, []);
  }

  /** From a persisted frontier; throws when the number of hashes does not fit the size. */
  static of(size: number, frontier: readonly Buffer[]): CompactRange {
    if (frontierLevels(size).length !== frontier.length)
      throw new Error(
        `a tree of ${size} leaves has ${frontierLevels(size).length} frontier hashes, not ${frontier.length}`,
      );
    return new CompactRange(size, [...frontier]);
  }

  get size(): number {
    return this.sizeValue;
  }

  get frontier(): readonly Buffer[] {
    return this.hashes;
  }

  /**
   * Appends one leaf hash; `onNode(level, index, hash)` is told of every node this completes: the
   * leaf itself (level 0) and each perfect subtree it closes (level l covers leaves
   * [index·2^l, (index+1)·2^l)), which is what a proof later needs.
   */
  append(leaf: Buffer, onNode?: (level: number, index: number, hash: Buffer) => void): void {
    let index = this.sizeValue;
    onNode?.(0, index, leaf);
    this.hashes.push(leaf);
    let level = 0;
    for (let s = this.sizeValue; s % 2 === 1; s = Math.floor(s / 2)) {
      const right = this.hashes.pop()!;
      const left = this.hashes.pop()!;
      const merged = nodeHash(left, right);
      this.hashes.push(merged);
      level += 1;
      index = Math.floor(index / 2);
      onNode?.(level, index, merged);
    }
    this.sizeValue += 1;
  }

  root(): Buffer {
    if (!this.hashes.length) return EMPTY_ROOT;
    let root = this.hashes[this.hashes.length - 1];
    for (let i = this.hashes.length - 2; i >= 0; i--) root = nodeHash(this.hashes[i], root);
    return root;
  }

  clone(): CompactRange {
    return new CompactRange(this.sizeValue, [...this.hashes]);
  }
}

/**
 * Where the tree's nodes come from: `node(level, index)` is the root of the perfect subtree over
 * leaves [index·2^level, (index+1)·2^level) (level 0: the leaf hashes), for complete subtrees only.
 */
export interface NodeSource {
  node(level: number, index: number): Buffer;
}

/** MTH(D[start:end]) from stored perfect subtrees: O(log n) nodes for any range. */
export function rangeRoot(nodes: NodeSource, start: number, end: number): Buffer {
  const n = end - start;
  if (n <= 0) return EMPTY_ROOT;
  if (isPowerOfTwo(n) && start % n === 0) return nodes.node(Math.log2(n), start / n);
  const k = splitPoint(n);
  return nodeHash(rangeRoot(nodes, start, start + k), rangeRoot(nodes, start + k, end));
}

/** The audit path of leaf `index` in the tree of the first `size` leaves (RFC 9162 §2.1.3.1), deepest node first. */
export function inclusionProof(nodes: NodeSource, index: number, size: number): Buffer[] {
  if (index < 0 || index >= size) throw new RangeError(`leaf ${index} is not in a tree of ${size} leaves`);
  const path = (m: number, start: number, end: number): Buffer[] => {
    const n = end - start;
    if (n === 1) return [];
    const k = splitPoint(n);
    return m < k
      ? [...path(m, start, start + k), rangeRoot(nodes, start + k, end)]
      : [...path(m - k, start + k, end), rangeRoot(nodes, start, start + k)];
  };
  return path(index, 0, size);
}

/** The consistency proof between the trees of the first `first` and `second` leaves (RFC 9162 §2.1.4.1). */
export function consistencyProof(nodes: NodeSource, first: number, second: number): Buffer[] {
  if (first < 0 || first > second) throw new RangeError(`no consistency proof from ${first} to ${second} leaves`);
  if (first === 0 || first === second) return [];
  const subproof = (m: number, start: number, end: number, complete: boolean): Buffer[] => {
    const n = end - start;
    if (m === n) return complete ? [] : [rangeRoot(nodes, start, end)];
    const k = splitPoint(n);
    return m <= k
      ? [...subproof(m, start, start + k, complete), rangeRoot(nodes, start + k, end)]
      : [...subproof(m - k, start + k, end, false), rangeRoot(nodes, start, start + k)];
  };
  return subproof(first, 0, second, true);
}

/** RFC 9162 §2.1.3.2: whether `path` proves leaf `index` (of hash `leaf`) in the tree of `size` leaves with `root`. */
export function verifyInclusion(
  index: number,
  size: number,
  leaf: Buffer,
  path: readonly Buffer[],
  root: Buffer,
): boolean {
  if (index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && r.equals(root);
}

/** RFC 9162 §2.1.4.2: whether `proof` shows the tree of `second` leaves (`secondRoot`) extends the one of `first` (`firstRoot`). */
export function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Buffer,
  secondRoot: Buffer,
  proof: readonly Buffer[],
): boolean {
  if (first < 0 || first > second) return false;
  if (first === second) return proof.length === 0 && firstRoot.equals(secondRoot);
  if (first === 0) return proof.length === 0 && firstRoot.equals(EMPTY_ROOT);
  if (!proof.length) return false;
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && fr.equals(firstRoot) && sr.equals(secondRoot);
}
