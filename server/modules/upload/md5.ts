import { createHash, type Hash } from 'node:crypto';

/**
 * MD5 of the first `limit` bytes of whatever is fed in, in order. The protocol's total_md5 covers
 * only the first 1 GiB of a file (spec §9), so bytes past the limit are counted but not hashed.
 */
export class PrefixMd5 {
  private readonly hash: Hash = createHash('md5');
  private seen = 0;

  constructor(private readonly limit: number) {}

  update(bytes: Uint8Array): void {
    const room = this.limit - this.seen;
    if (room > 0) this.hash.update(bytes.length <= room ? bytes : bytes.subarray(0, room));
    this.seen += bytes.length;
  }

  /** Bytes fed so far, hashed or not. */
  get size(): number {
    return this.seen;
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

export const isMd5Hex = (value: string): boolean => /^[0-9a-f]{32}$/i.test(value);
