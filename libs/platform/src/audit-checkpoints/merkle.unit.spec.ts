import { createHash, generateKeyPairSync } from 'node:crypto';
import { signCheckpoint, signedBody, verifyCheckpoint } from './checkpoint';
import {
  CompactRange,
  EMPTY_ROOT,
  consistencyProof,
  inclusionProof,
  leafHash,
  leafInput,
  nodeHash,
  splitPoint,
  verifyConsistency,
  verifyInclusion,
  type NodeSource,
} from './merkle';
import { keyIdOf, parsePrivateKey } from './signing-key';

/** RFC 6962 §2.1 as written: MTH by recursion over the list, PATH and SUBPROOF over the list. */
const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const mth = (d: Buffer[]): Buffer =>
  d.length === 0
    ? EMPTY_ROOT
    : d.length === 1
      ? sha(Buffer.of(0), d[0])
      : sha(Buffer.of(1), mth(d.slice(0, splitPoint(d.length))), mth(d.slice(splitPoint(d.length))));
const path = (m: number, d: Buffer[]): Buffer[] => {
  if (d.length === 1) return [];
  const k = splitPoint(d.length);
  return m < k ? [...path(m, d.slice(0, k)), mth(d.slice(k))] : [...path(m - k, d.slice(k)), mth(d.slice(0, k))];
};
const subproof = (m: number, d: Buffer[], b: boolean): Buffer[] => {
  if (m === d.length) return b ? [] : [mth(d)];
  const k = splitPoint(d.length);
  return m <= k
    ? [...subproof(m, d.slice(0, k), b), mth(d.slice(k))]
    : [...subproof(m - k, d.slice(k), false), mth(d.slice(0, k))];
};

/** Leaf inputs, and a node source built the way the side index is: from the nodes CompactRange completes. */
function tree(n: number) {
  const inputs = Array.from({ length: n }, (_, i) =>
    Buffer.from(
      leafInput({
        position: i * 3 + 1,
        stream_id: `s-${i % 4}`,
        revision: Math.floor(i / 4),
        hash: sha(Buffer.from(String(i))).toString('hex'),
      }),
    ),
  );
  const nodes = new Map<string, Buffer>();
  const range = CompactRange.empty();
  for (const input of inputs)
    range.append(sha(Buffer.of(0), input), (level, index, hash) => nodes.set(`${level}/${index}`, hash));
  const source: NodeSource = {
    node: (level, index) => nodes.get(`${level}/${index}`) ?? fail(`no node ${level}/${index}`),
  };
  return { inputs, range, source, leaf: (i: number) => sha(Buffer.of(0), inputs[i]) };
}
const fail = (message: string): never => {
  throw new Error(message);
};

describe('the Merkle tree (RFC 6962 / 9162)', () => {
  it('hashes a leaf as SHA-256(0x00 || canonical JSON) and a node as SHA-256(0x01 || left || right)', () => {
    const leaf = { stream_id: 'transfer-trf_1', revision: 2, position: 42, hash: 'ab'.repeat(32) };
    expect(leafInput(leaf)).toBe(
      `{"hash":"${'ab'.repeat(32)}","position":42,"revision":2,"stream_id":"transfer-trf_1"}`,
    );
    expect(leafHash(leaf)).toEqual(sha(Buffer.of(0), Buffer.from(leafInput(leaf))));
    expect(nodeHash(Buffer.alloc(32, 1), Buffer.alloc(32, 2))).toEqual(
      sha(Buffer.of(1), Buffer.alloc(32, 1), Buffer.alloc(32, 2)),
    );
    expect(CompactRange.empty().root()).toEqual(sha());
  });

  it('the compact range gives MTH at every size, and keeps one hash per set bit of the size', () => {
    for (let n = 1; n <= 70; n++) {
      const t = tree(n);
      expect(t.range.root()).toEqual(mth(t.inputs));
      expect(t.range.frontier).toHaveLength(n.toString(2).replace(/0/g, '').length);
      expect(CompactRange.of(n, t.range.frontier).root()).toEqual(mth(t.inputs));
    }
    expect(() => CompactRange.of(5, [Buffer.alloc(32)])).toThrow('frontier');
  });

  it('inclusion proofs equal PATH and verify; a wrong leaf, index or root does not', () => {
    for (let n = 1; n <= 40; n++) {
      const t = tree(n);
      const root = mth(t.inputs);
      for (let m = 0; m < n; m++) {
        const proof = inclusionProof(t.source, m, n);
        expect(proof).toEqual(path(m, t.inputs));
        expect(verifyInclusion(m, n, t.leaf(m), proof, root)).toBe(true);
        expect(verifyInclusion(m, n, t.leaf((m + 1) % n), proof, root)).toBe(n === 1 ? true : false);
        if (n > 1) expect(verifyInclusion((m + 1) % n, n, t.leaf(m), proof, root)).toBe(false);
        // (The size is not bound by the path alone: the checkpoint signs it beside the root.)
        expect(verifyInclusion(m, m, t.leaf(m), proof, root)).toBe(false);
        expect(verifyInclusion(m, n, t.leaf(m), proof, sha(root))).toBe(false);
      }
    }
  });

  it('consistency proofs equal SUBPROOF and verify between every pair of sizes; swapped roots do not', () => {
    for (let n = 1; n <= 24; n++) {
      const t = tree(n);
      for (let m = 1; m <= n; m++) {
        const proof = consistencyProof(t.source, m, n);
        expect(proof).toEqual(m === n ? [] : subproof(m, t.inputs, true));
        const [r1, r2] = [mth(t.inputs.slice(0, m)), mth(t.inputs)];
        expect(verifyConsistency(m, n, r1, r2, proof)).toBe(true);
        if (m < n) expect(verifyConsistency(m, n, r2, r1, proof)).toBe(false);
        if (m < n) expect(verifyConsistency(m, n, sha(r1), r2, proof)).toBe(false);
      }
    }
  });
});

describe('checkpoint signatures (Ed25519)', () => {
  const privateKey = generateKeyPairSync('ed25519').privateKey;
  const publicKey = generateKeyPairSync('ed25519').publicKey;
  const key = {
    privateKey,
    publicKey: require('node:crypto').createPublicKey(privateKey),
    publicKeyPem: '',
    keyId: 'k'.repeat(64),
    source: 'generated' as const,
  };

  it('signs the fixed text body and verifies with the public key only', () => {
    const statement = { tree_size: 7, last_position: 9, root_hash: 'cd'.repeat(32), timestamp: 1_700_000_000_000 };
    expect(signedBody(statement)).toBe(`payments-audit-checkpoint/v1\n7\n9\n${'cd'.repeat(32)}\n1700000000000\n`);
    const signed = signCheckpoint(statement, key);
    expect(verifyCheckpoint(signed, key.publicKey)).toBe(true);
    expect(verifyCheckpoint(signed, publicKey)).toBe(false);
    expect(verifyCheckpoint({ ...signed, tree_size: 8 }, key.publicKey)).toBe(false);
    expect(verifyCheckpoint({ ...signed, signature: 'not base64!' }, key.publicKey)).toBe(false);
  });

  it('reads AUDIT_SIGNING_KEY as a PKCS#8 PEM or a base64 seed, and refuses anything else', () => {
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const seed = (privateKey.export({ format: 'der', type: 'pkcs8' }) as Buffer).subarray(-32).toString('base64');
    const fromPem = parsePrivateKey(pem, 'AUDIT_SIGNING_KEY');
    const fromSeed = parsePrivateKey(seed, 'AUDIT_SIGNING_KEY');
    const id = (k: ReturnType<typeof parsePrivateKey>) => keyIdOf(require('node:crypto').createPublicKey(k));
    expect(id(fromSeed)).toBe(id(fromPem));
    expect(() => parsePrivateKey(Buffer.alloc(16).toString('base64'), 'AUDIT_SIGNING_KEY')).toThrow('32 bytes');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString();
    expect(() => parsePrivateKey(rsa, 'AUDIT_SIGNING_KEY')).toThrow('must be an Ed25519 key');
  });
});
