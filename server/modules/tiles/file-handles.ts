import fs from 'node:fs/promises';
import { Lru } from './lru.js';

interface Pooled {
  handle: Promise<fs.FileHandle>;
  reads: number;
  evicted: boolean;
}

/**
 * Open file descriptors, kept between requests (opening a 10 GB slide per tile would cost a syscall pair
 * and a path walk each time) and bounded (a server with thousands of slides must not run out of fds).
 * A handle evicted while a read is in flight is closed when that read finishes.
 */
export class FileHandlePool {
  private readonly lru: Lru<string, Pooled>;

  constructor(maxOpen = 64) {
    this.lru = new Lru<string, Pooled>(maxOpen, () => 1, (_, pooled) => {
      pooled.evicted = true;
      if (pooled.reads === 0) void close(pooled);
    });
  }

  /** Reads up to `length` bytes at `position` of `file`; fewer only at the end of the file. */
  async read(file: string, position: number, length: number): Promise<Buffer> {
    let pooled = this.lru.get(file);
    if (!pooled) {
      pooled = { handle: fs.open(file, 'r'), reads: 0, evicted: false };
      this.lru.set(file, pooled);
      pooled.handle.catch(() => this.lru.delete(file));
    }
    pooled.reads++;
    try {
      const fh = await pooled.handle;
      const buffer = Buffer.allocUnsafe(length);
      const { bytesRead } = await fh.read(buffer, 0, length, position);
      return bytesRead === length ? buffer : buffer.subarray(0, bytesRead);
    } finally {
      pooled.reads--;
      if (pooled.evicted && pooled.reads === 0) void close(pooled);
    }
  }

  /** Forgets (and closes) the handle of a file that changed on disk. */
  forget(file: string): void {
    this.lru.delete(file);
  }

  closeAll(): void {
    this.lru.clear();
  }
}

async function close(pooled: Pooled): Promise<void> {
  try {
    await (await pooled.handle).close();
  } catch {
    // Already closed or never opened: nothing to release.
  }
}
