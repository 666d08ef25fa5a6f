/** File contents (KYC documents) kept beside the log: events carry a blob's fingerprint, never its bytes. */
export interface StoredBlob {
  readonly key: string;
  readonly size: number;
  /** Hex SHA-256 of the bytes, recorded in the event so a stored file can be verified later. */
  readonly sha256: string;
}

export interface BlobStore {
  /** Durable when it resolves: callers append the event that refers to the blob only afterwards. */
  put(key: string, bytes: Buffer): Promise<StoredBlob>;
  /** The bytes, or null when no blob has this key. */
  get(key: string): Promise<Buffer | null>;
}

export const BLOB_STORE = Symbol('BLOB_STORE');

/** Keys are path-like (`documents/<org>/<id>`) but never climb out of the store. */
export function assertBlobKey(key: string): void {
  if (!/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/.test(key)) throw new Error(`invalid blob key ${key}`);
}
