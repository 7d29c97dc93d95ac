import { Lru } from './lru.js';

/** A finished response body: merged pass-through JPEGs and produced (decoded, resized, re-encoded) images alike. */
export interface CachedImage {
  body: Buffer;
  contentType: string;
}

/**
 * Hot tiles in memory, bounded by bytes. A viewer panning a region asks for the same few hundred tiles
 * again and again (and several viewers look at one slide at a reading meeting); serving them from here
 * skips the disk read and the table merge, and for produced tiles the decode and encode.
 * Concurrent misses for one key share one production.
 */
export class TileCache {
  private readonly lru: Lru<string, CachedImage>;
  private readonly inflight = new Map<string, Promise<CachedImage>>();

  constructor(budgetBytes: number) {
    // ~100 bytes of key and bookkeeping per entry, so tiny tiles are not free.
    this.lru = new Lru<string, CachedImage>(budgetBytes, (v) => v.body.length + 100);
  }

  get(key: string): CachedImage | undefined {
    return this.lru.get(key);
  }

  async getOrProduce(key: string, produce: () => Promise<CachedImage>): Promise<CachedImage> {
    const hit = this.lru.get(key);
    if (hit) return hit;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = produce().then((image) => {
        this.lru.set(key, image);
        return image;
      }).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  get bytes(): number {
    return this.lru.size;
  }
}
