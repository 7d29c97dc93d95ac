/**
 * A least-recently-used map bounded by a total "size" (bytes for tiles, 1 per entry for handles).
 * A Map keeps insertion order, so re-inserting on access makes its first key the oldest. Entries touched
 * recently (in the newest quarter of the order) are not moved again: a hot tile read 50 times a second would
 * otherwise pay a delete and an insert each time, for no change in what gets evicted.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, { value: V; size: number; stamp: number }>();
  private total = 0;
  private clock = 0;

  constructor(
    private readonly budget: number,
    private readonly sizeOf: (value: V) => number = () => 1,
    private readonly onEvict?: (key: K, value: V) => void,
  ) {}

  get(key: K): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    if (this.clock - hit.stamp >= Math.max(1, this.map.size >> 2)) {
      hit.stamp = ++this.clock;
      this.map.delete(key);
      this.map.set(key, hit);
    }
    return hit.value;
  }

  /** Values larger than the whole budget are not kept (they would evict everything else). */
  set(key: K, value: V): void {
    const size = this.sizeOf(value);
    this.delete(key);
    if (size > this.budget) return;
    this.map.set(key, { value, size, stamp: ++this.clock });
    this.total += size;
    while (this.total > this.budget) {
      const oldest = this.map.keys().next().value as K;
      this.delete(oldest);
    }
  }

  delete(key: K): void {
    const hit = this.map.get(key);
    if (!hit) return;
    this.map.delete(key);
    this.total -= hit.size;
    this.onEvict?.(key, hit.value);
  }

  clear(): void {
    for (const key of [...this.map.keys()]) this.delete(key);
  }

  /** A snapshot of the entries, oldest first, without touching their recency; safe to delete while iterating. */
  entries(): [K, V][] {
    return [...this.map].map(([key, hit]) => [key, hit.value]);
  }

  get size(): number {
    return this.total;
  }

  get count(): number {
    return this.map.size;
  }
}
