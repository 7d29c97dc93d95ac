import type { BlockCache } from './block-cache.js';
import { blockCacheFor, openStorage, type BlockCacheConfig } from './open-storage.js';
import type { Storage } from './storage.js';
import type { StorageConfig } from './storage-url.js';

export interface AppStorage {
  storage: Storage;
  /** In front of remote reads (tiles); none for the data directory. */
  cache?: BlockCache;
}

const opened = new Map<string, AppStorage>();

/**
 * One storage (one S3 client, one block cache) per process and setting, shared by the routes and the job types
 * that need it: the cache is worth most when every tile of a process goes through the same one.
 */
export function appStorage(config: { dataDir: string; storage?: StorageConfig; blockCache?: BlockCacheConfig }): AppStorage {
  const id = JSON.stringify([config.dataDir, config.storage ?? { kind: 'local' }, config.blockCache ?? null]);
  let found = opened.get(id);
  if (!found) {
    const storage = openStorage(config.storage, config.dataDir);
    found = { storage, cache: blockCacheFor(storage, config.blockCache ?? { memoryMb: 256, dirMb: 0 }) };
    opened.set(id, found);
  }
  return found;
}
