import { describe, expect, it } from 'vitest';
import { Lru } from '../../server/modules/tiles/lru.js';

describe('tile LRU', () => {
  it('evicts the least recently used entries once the byte budget is exceeded, telling the owner', () => {
    const evicted: string[] = [];
    const lru = new Lru<string, Buffer>(10, (b) => b.length, (k) => evicted.push(k));
    lru.set('a', Buffer.alloc(4));
    lru.set('b', Buffer.alloc(4));
    lru.get('a');
    lru.set('c', Buffer.alloc(4));
    expect(evicted).toEqual(['b']);
    expect([lru.get('a')?.length, lru.get('b'), lru.get('c')?.length]).toEqual([4, undefined, 4]);
    expect(lru.size).toBe(8);
    lru.set('huge', Buffer.alloc(11));
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.count).toBe(2);
  });

  it('keeps a hot entry while a scan of cold entries passes through', () => {
    const lru = new Lru<number, number>(100);
    lru.set(-1, 0);
    for (let i = 0; i < 1000; i++) {
      lru.set(i, i);
      expect(lru.get(-1)).toBe(0);
    }
    expect(lru.count).toBe(100);
  });
});
