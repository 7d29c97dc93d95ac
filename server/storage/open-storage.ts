import { BlockCache } from './block-cache.js';
import { LocalStorage } from './local-storage.js';
import { S3Storage } from './s3-storage.js';
import type { Storage } from './storage.js';
import type { StorageConfig } from './storage-url.js';

export interface BlockCacheConfig { memoryMb: number; dir?: string; dirMb: number }

/** The app's storage: the data directory, or the S3 bucket of STORAGE_URL. */
export function openStorage(config: StorageConfig | undefined, dataDir: string): Storage {
  return config?.kind === 's3' ? new S3Storage(config) : new LocalStorage(dataDir);
}

/** The block cache remote reads go through (S3_CACHE_MB, S3_CACHE_DIR, S3_CACHE_DIR_MB); local files need none. */
export function blockCacheFor(storage: Storage, config: BlockCacheConfig): BlockCache | undefined {
  if (storage.kind === 'local') return undefined;
  return new BlockCache((key, start, length) => storage.readRange(key, start, length), {
    maxBytes: config.memoryMb * 2 ** 20, diskDir: config.dir, diskMaxBytes: config.dirMb * 2 ** 20,
  });
}
