import fs from 'node:fs';
import { PrefixMd5 } from './md5.js';

/** How many bytes of newly written chunks may pile up in the page cache before a background fdatasync. */
const SYNC_EVERY_BYTES = 64 * 1024 * 1024;

/**
 * Follows one upload's data file as its chunks become present in order from the first: hashes what lies within
 * `md5Limit` (total_md5 covers the first 1 GiB, spec §9) and keeps the disk close behind with background
 * fdatasyncs, so that when the last chunk lands little is left to hash or flush. Runs on the upload worker
 * thread, so its blocking reads never hold up a request; one caller-owned buffer is reused.
 * The first failure is kept and reported by `finish`.
 */
export class HashJob {
  private fd?: number;
  private readonly hash: PrefixMd5;
  /** Offset of the next chunk to take in. */
  private position = 0;
  private unsynced = 0;
  private syncing?: Promise<void>;
  private failure?: NodeJS.ErrnoException;
  private closed = false;

  constructor(
    readonly dataPath: string,
    private readonly md5Limit: number,
    private readonly chunkBytes: number,
    private readonly buffer: Buffer,
  ) {
    this.hash = new PrefixMd5(md5Limit);
  }

  /** The next `count` chunks (in file order) are written. */
  add(count: number): void {
    for (let i = 0; i < count && !this.failure; i++) {
      try {
        if (this.position < this.md5Limit) this.hashChunk();
        else this.position += this.chunkBytes;
        this.unsynced += this.chunkBytes;
        if (this.unsynced >= SYNC_EVERY_BYTES && !this.syncing) this.syncInBackground();
      } catch (err) {
        this.failure = err as NodeJS.ErrnoException;
      }
    }
  }

  /** Flushes the data file to disk and answers the MD5 of its first `md5Limit` bytes. */
  async finish(): Promise<{ md5: string }> {
    try {
      await this.syncing;
      if (this.failure) throw this.failure;
      fs.fsyncSync(this.open());
      return { md5: this.hash.digest() };
    } finally {
      await this.abort();
    }
  }

  /** Ends the job; the data file is the upload's own and stays. */
  async abort(): Promise<void> {
    await this.syncing;
    if (this.closed) return;
    this.closed = true;
    if (this.fd !== undefined) fs.closeSync(this.fd);
  }

  private open(): number {
    return (this.fd ??= fs.openSync(this.dataPath, 'r'));
  }

  private hashChunk(): void {
    const fd = this.open();
    let got = 0;
    while (got < this.chunkBytes) {
      const n = fs.readSync(fd, this.buffer, got, this.chunkBytes - got, this.position + got);
      if (n === 0) break;
      got += n;
    }
    this.hash.update(this.buffer.subarray(0, got));
    this.position += got;
  }

  /** Writeback of what is written so far overlaps the chunks still to come. */
  private syncInBackground(): void {
    this.unsynced = 0;
    const fd = this.open();
    this.syncing = new Promise<void>((resolve) => {
      fs.fdatasync(fd, (err) => {
        if (err) this.failure ??= err;
        this.syncing = undefined;
        resolve();
      });
    });
  }
}
