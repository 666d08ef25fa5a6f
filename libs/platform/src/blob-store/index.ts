import { join } from 'node:path';
import type { PlatformConfig } from '../config/platform-config';
import type { BlobStore } from './blob-store.port';
import { FilesystemBlobStore } from './filesystem-blob-store';

export * from './blob-store.port';
export { FilesystemBlobStore } from './filesystem-blob-store';

/** Embedded mode keeps documents under DATA_DIR/documents/. */
export const createBlobStore = (config: PlatformConfig): BlobStore =>
  new FilesystemBlobStore(join(config.dataDir, 'documents'));
