import { createHash } from 'node:crypto';
import path from 'node:path';
import { parseAreaStorage } from '../../src/core/hospitalArea.js';
import { appStorage } from './app-storage.js';
import type { BlockCache } from './block-cache.js';
import { LocalStorage } from './local-storage.js';
import { blockCacheFor, type BlockCacheConfig } from './open-storage.js';
import { S3Storage } from './s3-storage.js';
import { keyUnder } from './storage-key.js';
import { parseS3Connection, type S3Connection, type StorageConfig } from './storage-url.js';
import type { Storage } from './storage.js';

/**
 * Where one slide's files are: its storage, the directory its stored paths (`slides/2026/05/a.svs`) are taken
 * relative to, as the data directory is for the default storage, and the block cache remote reads go through. For an
 * area on S3 the root is a name only (under DATA_DIR/.area-objects/, never written): a file path under it is a key of
 * that bucket, as a path under DATA_DIR is one of STORAGE_URL's.
 */
export interface SlidePlace {
  storage: Storage;
  root: string;
  cache?: BlockCache;
}

/** A hospital area as its row says where its slides are. */
export interface AreaLocation {
  id: number;
  storage_url: string;
}

export interface AreaStorageConfig {
  dataDir: string;
  storage?: StorageConfig;
  blockCache?: BlockCacheConfig;
  /** How areas on `s3://` reach their buckets (S3_*); the environment's defaults when left out. */
  s3Connection?: S3Connection;
}

/**
 * The storages of the hospital areas (issue 29), each opened on first use and kept for the process: one S3 client
 * and block cache per area on object storage, as the default storage has one. A slide outside any area is the
 * default storage's (app-storage.ts), so an installation without areas works as before.
 */
export class AreaStorages {
  readonly base: SlidePlace;
  private readonly opened = new Map<string, SlidePlace>();

  constructor(private readonly config: AreaStorageConfig) {
    const { storage, cache } = appStorage(config);
    this.base = { storage, cache, root: path.resolve(config.dataDir) };
  }

  /** The place of an area's slides; none (null): the default storage. A location the write check refused never gets here. */
  of(area: AreaLocation | null | undefined): SlidePlace {
    if (!area) return this.base;
    const id = `${area.id}\0${area.storage_url}`;
    let place = this.opened.get(id);
    if (!place) {
      place = this.open(area);
      this.opened.set(id, place);
    }
    return place;
  }

  /**
   * What a tile reader needs for a file on object storage: the storage and block cache of the place whose root holds
   * it (the innermost, so an area directory under DATA_DIR is read as a local file), or undefined for a local file.
   */
  remoteFor(file: string): { storage: Storage; cache: BlockCache; dataDir: string } | undefined {
    let best: SlidePlace | undefined;
    for (const place of [this.base, ...this.opened.values()]) {
      if (keyUnder(place.root, file) !== null && (!best || place.root.length > best.root.length)) best = place;
    }
    return best?.cache ? { storage: best.storage, cache: best.cache, dataDir: best.root } : undefined;
  }

  private open(area: AreaLocation): SlidePlace {
    const location = parseAreaStorage(area.storage_url);
    if ('error' in location) throw new Error(`hospital area ${area.id}: storage "${area.storage_url}" is not valid (${location.error})`);
    if (location.kind === 'local') return { storage: new LocalStorage(location.dir), root: location.dir };
    const connection = this.config.s3Connection ?? parseS3Connection({});
    const storage = new S3Storage({ ...connection, bucket: location.bucket, prefix: location.prefix });
    const name = createHash('sha1').update(area.storage_url).digest('hex').slice(0, 16);
    return {
      storage,
      root: path.join(path.resolve(this.config.dataDir), '.area-objects', `${area.id}-${name}`),
      // Memory only: S3_CACHE_DIR belongs to the default storage's cache, which empties it at start.
      cache: blockCacheFor(storage, { memoryMb: this.config.blockCache?.memoryMb ?? 256, dirMb: 0 }),
    };
  }
}

const registries = new Map<string, AreaStorages>();

/** One registry per process and setting, shared by the routes and the job types (as appStorage is). */
export function areaStorages(config: AreaStorageConfig): AreaStorages {
  const id = JSON.stringify([config.dataDir, config.storage ?? { kind: 'local' }, config.blockCache ?? null, config.s3Connection ?? null]);
  let found = registries.get(id);
  if (!found) registries.set(id, (found = new AreaStorages(config)));
  return found;
}
