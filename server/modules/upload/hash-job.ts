import fs from 'node:fs';
import { PrefixMd5 } from './md5.js';

/**
 * Follows one upload's data file as its chunks become present in order from the first, hashing what lies within
 * `md5Limit` (total_md5 covers the first 1 GiB, spec §9), so that when the last chunk lands little is left to hash.
 * Runs on the upload worker thread, so its blocking reads never hold up a request; one caller-owned buffer is
 * reused. The first failure is kept and reported by `finish`. Durability is not its business: every chunk is on
 * disk before it is marked present (UploadStore.writeChunk).
 */
export class HashJob {
  private fd?: number;
  private readonly hash: PrefixMd5;
  /** Offset of the next byte to take in. */
  private position = 0;
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

  /** The next `count` whole chunks (in file order) are written. */
  add(count: number): void {
    for (let i = 0; i < count && !this.failure; i++) this.take(this.position + this.chunkBytes);
  }

  /** Takes in the rest of a file of `size` bytes and answers the MD5 of its first `md5Limit` bytes. */
  finish(size: number): { md5: string } {
    try {
      this.take(size);
      if (this.failure) throw this.failure;
      return { md5: this.hash.digest() };
    } finally {
      this.abort();
    }
  }

  /** Ends the job; the data file is the upload's own and stays. */
  abort(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.fd !== undefined) fs.closeSync(this.fd);
  }

  /** Hashes up to offset `end` (bytes past the limit are only counted): exactly those bytes, never what lies beyond. */
  private take(end: number): void {
    if (this.failure) return;
    try {
      const stop = Math.min(end, this.md5Limit);
      while (this.position < stop) {
        const want = Math.min(this.buffer.length, stop - this.position);
        const n = fs.readSync((this.fd ??= fs.openSync(this.dataPath, 'r')), this.buffer, 0, want, this.position);
        if (n === 0) throw Object.assign(new Error(`${this.dataPath} ends at ${this.position}, before ${stop}`), { code: 'ESHORT' });
        this.hash.update(this.buffer.subarray(0, n));
        this.position += n;
      }
      this.position = Math.max(this.position, end);
    } catch (err) {
      this.failure = err as NodeJS.ErrnoException;
    }
  }
}
