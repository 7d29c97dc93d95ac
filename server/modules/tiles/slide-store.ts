import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { FileHandlePool } from './file-handles.js';
import { Lru } from './lru.js';
import { listSeriesFolder, seriesReadAt } from './dicom/series-files.js';
import { readDicomSeriesIndex } from './dicom/series-index.js';
import { readAnySlideIndex } from './open-index.js';
import type { SlideIndex } from './slide-index.js';
import type { ReadAt } from './tiff/ifd-parser.js';
import type { BlockCache } from '../../storage/block-cache.js';
import type { Storage } from '../../storage/storage.js';
import { keyUnder } from '../../storage/storage-key.js';

/** Slides kept in object storage (STORAGE_URL=s3://…): read by ranged GETs through the block cache, keyed under `dataDir`. */
export interface RemoteSlides {
  storage: Storage;
  cache: BlockCache;
  dataDir: string;
}

/** The remote slides of one storage, or a lookup naming the storage a file is in (hospital areas: storage/area-storages.ts). */
export type RemoteLookup = RemoteSlides | ((file: string) => RemoteSlides | undefined);

/** A slide file (or a DICOM series folder) whose directories have been read: what every tile request needs, kept in memory. */
export interface OpenedSlide {
  file: string;
  /** Changes whenever the file does (device, inode, size, mtime): part of every ETag and cache key. */
  identity: string;
  index: SlideIndex;
  readAt: ReadAt;
  /** In object storage: `file` is no local path, so nothing may hand it to libvips (tile-service.ts, tile-reader.ts). */
  remote?: true;
}

interface Entry {
  slide: OpenedSlide;
  checkedAt: number;
}

export interface SlideStoreOptions {
  maxSlides?: number;
  maxOpenFiles?: number;
  /** How long a file is trusted unchanged before it is stat'ed again. */
  recheckMs?: number;
  remote?: RemoteLookup;
}

/**
 * Builds each file's index once and keeps it (LRU by path, rebuilt when size or mtime change), with the
 * file's handle. The index of a 50k × 50k slide is ~0.5 MB of tile offsets; parsing it per tile would
 * cost more than serving the tile.
 */
export class SlideStore {
  private readonly handles: FileHandlePool;
  private readonly slides: Lru<string, Entry>;
  private readonly opening = new Map<string, Promise<OpenedSlide>>();
  private readonly recheckMs: number;
  private readonly remote?: RemoteLookup;

  constructor(options: SlideStoreOptions = {}) {
    this.remote = options.remote;
    this.handles = new FileHandlePool(options.maxOpenFiles ?? 64);
    this.slides = new Lru<string, Entry>(options.maxSlides ?? 256);
    this.recheckMs = options.recheckMs ?? 2_000;
  }

  /** The cached slide if it was checked recently; lets the hot path skip a promise. */
  peek(file: string): OpenedSlide | undefined {
    const hit = this.slides.get(file);
    return hit && Date.now() - hit.checkedAt < this.recheckMs ? hit.slide : undefined;
  }

  async open(file: string): Promise<OpenedSlide> {
    const fresh = this.peek(file);
    if (fresh) return fresh;
    let pending = this.opening.get(file);
    if (!pending) {
      pending = this.load(file).finally(() => this.opening.delete(file));
      this.opening.set(file, pending);
    }
    return pending;
  }

  close(): void {
    this.slides.clear();
    this.handles.closeAll();
  }

  private async load(file: string): Promise<OpenedSlide> {
    const remote = typeof this.remote === 'function' ? this.remote(file) : this.remote;
    const key = remote && keyUnder(remote.dataDir, file);
    if (key) return this.loadRemote(file, key, remote!);
    const stat = await fs.stat(file);
    // A folder is a DICOM series: its identity covers every instance, its reads go to the instance they fall in.
    const series = stat.isDirectory() ? await listSeriesFolder(file) : null;
    const state = series ? series.map((f) => `${f.name}:${f.ino}:${f.size}:${f.mtimeMs}`).join('/') : `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    const identity = createHash('sha1').update(`${file}\0${stat.dev}:${state}`).digest('hex').slice(0, 16);
    const known = this.slides.get(file);
    if (known && known.slide.identity === identity) {
      known.checkedAt = Date.now();
      return known.slide;
    }
    if (known) for (const f of series ?? [{ path: file }]) this.handles.forget(f.path);
    let slide: OpenedSlide;
    if (series) {
      const readAt = seriesReadAt(series, (f, position, length) => this.handles.read(f, position, length));
      slide = { file, identity, index: await readDicomSeriesIndex(readAt, series), readAt };
    } else {
      const readAt: ReadAt = (position, length) => this.handles.read(file, position, length);
      slide = { file, identity, index: await readAnySlideIndex(readAt), readAt };
    }
    this.slides.set(file, { slide, checkedAt: Date.now() });
    return slide;
  }

  /** An object's identity is its ETag; its reads are the block cache's. A missing object is ENOENT, as a missing file. */
  private async loadRemote(file: string, key: string, { storage, cache }: RemoteSlides): Promise<OpenedSlide> {
    const stat = await storage.stat(key);
    if (!stat) throw Object.assign(new Error(`no object ${key}`), { code: 'ENOENT' });
    const identity = createHash('sha1').update(`${key}\0${stat.tag}:${stat.size}`).digest('hex').slice(0, 16);
    const known = this.slides.get(file);
    if (known && known.slide.identity === identity) {
      known.checkedAt = Date.now();
      return known.slide;
    }
    const readAt = cache.readAt(key, stat);
    const slide: OpenedSlide = { file, identity, index: await readAnySlideIndex(readAt), readAt, remote: true };
    this.slides.set(file, { slide, checkedAt: Date.now() });
    return slide;
  }
}
