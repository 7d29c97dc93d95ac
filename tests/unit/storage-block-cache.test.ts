import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BlockCache } from '../../server/storage/block-cache.js';
import type { ObjectStat } from '../../server/storage/storage.js';

/** An object in memory behind a counting ranged read: what the cache saves is counted in GETs. */
function remote(size: number) {
  const bytes = randomBytes(size);
  const gets: [string, number, number][] = [];
  const fetch = async (key: string, start: number, length: number) => {
    gets.push([key, start, length]);
    await new Promise((r) => setTimeout(r, 1));
    return Buffer.from(bytes.subarray(start, start + length));
  };
  const stat: ObjectStat = { size, mtimeMs: 0, tag: 'v1' };
  return { bytes, gets, fetch, stat };
}

describe('block cache', () => {
  it('answers any range with the object bytes, across blocks and at the end', async () => {
    const r = remote(10_000);
    const readAt = new BlockCache(r.fetch, { maxBytes: 1 << 20, blockBytes: 1024 }).readAt('k', r.stat);
    for (const [pos, len] of [[0, 10], [1000, 100], [1020, 5000], [9990, 100], [10_000, 5], [0, 10_000]]) {
      expect((await readAt(pos!, len!)).equals(r.bytes.subarray(pos, Math.min(pos! + len!, 10_000)))).toBe(true);
    }
  });

  it('fetches a block once: warm reads and concurrent misses cost no further GET', async () => {
    const r = remote(8192);
    const cache = new BlockCache(r.fetch, { maxBytes: 1 << 20, blockBytes: 1024 });
    const readAt = cache.readAt('k', r.stat);
    await Promise.all(Array.from({ length: 16 }, () => readAt(100, 50)));
    expect(r.gets).toEqual([['k', 0, 1024]]);
    await readAt(200, 10);
    expect(r.gets.length).toBe(1);
    expect(cache.counts.hits).toBeGreaterThan(0);
  });

  it('never holds more than its byte budget', async () => {
    const r = remote(100 * 1024);
    const cache = new BlockCache(r.fetch, { maxBytes: 10 * 1024, blockBytes: 1024 });
    const readAt = cache.readAt('k', r.stat);
    for (let i = 0; i < 100; i++) {
      await readAt(i * 1024, 1024);
      expect(cache.memoryBytes).toBeLessThanOrEqual(10 * 1024);
    }
    expect(cache.memoryBytes).toBe(10 * 1024);
    // The oldest went: reading it again is a GET.
    const before = r.gets.length;
    await readAt(0, 10);
    expect(r.gets.length).toBe(before + 1);
  });

  it('reads a replaced object afresh (its tag is in the block key)', async () => {
    const r = remote(4096);
    const cache = new BlockCache(r.fetch, { maxBytes: 1 << 20, blockBytes: 1024 });
    await cache.readAt('k', r.stat)(0, 10);
    await cache.readAt('k', { ...r.stat, tag: 'v2' })(0, 10);
    expect(r.gets.length).toBe(2);
  });

  it('keeps blocks evicted from memory on local disk, within its own bound', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-blocks-'));
    try {
      const r = remote(64 * 1024);
      const cache = new BlockCache(r.fetch, { maxBytes: 4 * 1024, blockBytes: 1024, diskDir: dir, diskMaxBytes: 16 * 1024 });
      const readAt = cache.readAt('k', r.stat);
      for (let i = 0; i < 20; i++) await readAt(i * 1024, 1024);
      // Spilling is written behind the reads; give it a moment.
      await new Promise((res) => setTimeout(res, 100));
      const onDisk = fs.readdirSync(dir).filter((n) => !n.endsWith('.tmp'));
      const diskBytes = onDisk.reduce((sum, n) => sum + fs.statSync(path.join(dir, n)).size, 0);
      expect(diskBytes).toBeLessThanOrEqual(16 * 1024);
      expect(onDisk.length).toBeGreaterThan(0);
      const gets = r.gets.length;
      // Block 15 left memory (4 blocks hold 16..19) but is within the disk's last 16.
      expect((await readAt(15 * 1024, 1024)).equals(r.bytes.subarray(15 * 1024, 16 * 1024))).toBe(true);
      expect(r.gets.length).toBe(gets);
      expect(cache.counts.diskHits).toBe(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
