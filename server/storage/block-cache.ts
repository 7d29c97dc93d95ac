import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Lru } from '../modules/tiles/lru.js';
import type { ReadAt } from '../modules/tiles/tiff/ifd-parser.js';
import type { ObjectStat } from './storage.js';

export interface BlockCacheOptions {
  /** Memory for blocks, in bytes: never exceeded (Lru by size). */
  maxBytes: number;
  /** A ranged GET fetches this much around what is asked; tiles are 10–100 KB, TIFF directories a few hundred. */
  blockBytes?: number;
  /** A local directory blocks evicted from memory are kept in, bounded by `diskMaxBytes`; emptied at start. */
  diskDir?: string;
  diskMaxBytes?: number;
}

/** Fetches `length` bytes at `start` of an object (fewer at its end): one ranged GET. */
export type FetchRange = (key: string, start: number, length: number) => Promise<Buffer>;

export const DEFAULT_BLOCK_BYTES = 256 * 1024;

/**
 * Fixed-size blocks of remote objects, in memory and optionally on local disk, so a viewer's tiles cost a ranged GET
 * per block the first time and none after. A block's key holds the object's tag (its ETag), so a replaced object
 * is read afresh; concurrent misses of one block share one GET.
 */
export class BlockCache {
  readonly blockBytes: number;
  private readonly memory: Lru<string, Buffer>;
  private readonly disk?: { dir: string; files: Lru<string, number> };
  private readonly inFlight = new Map<string, Promise<Buffer>>();
  readonly counts = { hits: 0, diskHits: 0, fetches: 0 };

  constructor(private readonly fetchRange: FetchRange, options: BlockCacheOptions) {
    this.blockBytes = options.blockBytes ?? DEFAULT_BLOCK_BYTES;
    this.memory = new Lru<string, Buffer>(options.maxBytes, (b) => b.length, (id, block) => this.spill(id, block));
    if (options.diskDir && (options.diskMaxBytes ?? 0) > 0) {
      const dir = path.resolve(options.diskDir);
      // Block names are not kept across restarts: what is left there belongs to nobody.
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      this.disk = { dir, files: new Lru<string, number>(options.diskMaxBytes!, (n) => n, (name) => fs.rm(path.join(dir, name), { force: true }, () => {})) };
    }
  }

  /** Bytes held in memory now; at most maxBytes. */
  get memoryBytes(): number {
    return this.memory.size;
  }

  /** A ReadAt over one object as it is now (`stat`): what the tile readers take. */
  readAt(key: string, stat: ObjectStat): ReadAt {
    return async (position, length) => {
      const end = Math.min(position + length, stat.size);
      if (end <= position) return Buffer.alloc(0);
      const first = Math.floor(position / this.blockBytes);
      const last = Math.floor((end - 1) / this.blockBytes);
      const blocks = await Promise.all(Array.from({ length: last - first + 1 }, (_, i) => this.block(key, stat, first + i)));
      const joined = blocks.length === 1 ? blocks[0]! : Buffer.concat(blocks);
      const from = position - first * this.blockBytes;
      return joined.subarray(from, from + (end - position));
    };
  }

  private async block(key: string, stat: ObjectStat, index: number): Promise<Buffer> {
    const id = `${key}\0${stat.tag}\0${index}`;
    const hit = this.memory.get(id);
    if (hit) {
      this.counts.hits++;
      return hit;
    }
    let pending = this.inFlight.get(id);
    if (!pending) {
      pending = this.load(id, key, stat, index).finally(() => this.inFlight.delete(id));
      this.inFlight.set(id, pending);
    }
    return pending;
  }

  private async load(id: string, key: string, stat: ObjectStat, index: number): Promise<Buffer> {
    const start = index * this.blockBytes;
    const length = Math.min(this.blockBytes, stat.size - start);
    let block = await this.fromDisk(id, length);
    if (block) this.counts.diskHits++;
    else {
      this.counts.fetches++;
      block = await this.fetchRange(key, start, length);
    }
    this.keep(id, block);
    return block;
  }

  private keep(id: string, block: Buffer): void {
    if (!this.memory.get(id)) this.memory.set(id, block);
  }

  private async fromDisk(id: string, length: number): Promise<Buffer | null> {
    if (!this.disk) return null;
    const name = blockName(id);
    if (this.disk.files.get(name) === undefined) return null;
    const bytes = await fs.promises.readFile(path.join(this.disk.dir, name)).catch(() => null);
    return bytes && bytes.length === length ? bytes : null;
  }

  private spill(id: string, block: Buffer): void {
    if (!this.disk) return;
    const name = blockName(id);
    if (this.disk.files.get(name) !== undefined) return;
    const { dir, files } = this.disk;
    // Written under a temporary name and renamed: a reader never sees half a block.
    const temp = path.join(dir, `${name}.tmp`);
    fs.writeFile(temp, block, (err) => {
      if (err) return;
      fs.rename(temp, path.join(dir, name), (e) => { if (!e) files.set(name, block.length); });
    });
  }
}

const blockName = (id: string) => createHash('sha1').update(id).digest('hex');
