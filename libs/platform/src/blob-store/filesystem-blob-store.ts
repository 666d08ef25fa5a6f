import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { assertBlobKey, type BlobStore, type StoredBlob } from './blob-store.port';

/**
 * Blobs as files under a root directory (DATA_DIR in embedded mode). A write goes to a temporary
 * file, is fsynced, renamed into place and the directory fsynced, so after `put` resolves the
 * file survives a crash, and a crash mid-write never leaves a half file under the real name.
 */
export class FilesystemBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  async put(key: string, bytes: Buffer): Promise<StoredBlob> {
    assertBlobKey(key);
    const path = join(this.root, key);
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    const file = await open(temp, 'wx', 0o600);
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
    await syncDirectory(dirname(path));
    return { key, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }

  async get(key: string): Promise<Buffer | null> {
    assertBlobKey(key);
    try {
      return await readFile(join(this.root, key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }
}

async function syncDirectory(path: string): Promise<void> {
  const dir = await open(path, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}
