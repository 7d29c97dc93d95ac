import { describe, expect, it } from 'vitest';
import { createCache, scopedKey } from './cache';

describe('engine cache', () => {
  it('shares one load between callers and serves the settled value to peek', async () => {
    const cache = createCache<number>();
    let loads = 0;
    const load = async () => ++loads;
    const [a, b] = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect([a, b, loads]).toEqual([1, 1, 1]);
    expect(cache.peek('k')).toBe(1);
    expect(cache.peek('other')).toBeUndefined();
  });

  it('forgets a failed load, so the next use asks again', async () => {
    const cache = createCache<number>();
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', async () => 2)).toBe(2);
  });

  it('asks again after maxAge, and not before', async () => {
    let t = 0;
    const cache = createCache<number>(1000, () => t);
    await cache.get('k', async () => 1);
    t = 1000;
    expect(await cache.get('k', async () => 2)).toBe(1);
    t = 1001;
    expect(cache.peek('k')).toBeUndefined();
    expect(await cache.get('k', async () => 3)).toBe(3);
  });

  it('forgets matching keys and tells subscribers; keys are per hospital', async () => {
    const cache = createCache<string>();
    await cache.get(scopedKey(1, 'roles'), async () => 'h1');
    await cache.get(scopedKey(2, 'roles'), async () => 'h2');
    await cache.get(scopedKey(1, 'labels'), async () => 'l1');
    expect(cache.peek(scopedKey(2, 'roles'))).toBe('h2');
    let told = 0;
    const off = cache.subscribe(() => { told++; });
    cache.forget((k) => k.endsWith('|roles'));
    expect(told).toBe(1);
    expect(cache.peek(scopedKey(1, 'roles'))).toBeUndefined();
    expect(cache.peek(scopedKey(1, 'labels'))).toBe('l1');
    cache.forget(() => false);
    expect(told).toBe(1);
    off();
    cache.forget(() => true);
    expect(told).toBe(1);
  });
});
