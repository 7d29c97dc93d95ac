import { describe, expect, it } from 'vitest';
import { createDuplicateLock } from './duplicateLock.js';

describe('duplicate-request lock (spec §7, §9: 5000 ms)', () => {
  const clock = () => {
    let t = 0;
    return { now: () => t, advance: (ms: number) => { t += ms; } };
  };

  it('rejects a duplicate POST, PATCH or PUT to the same URL within 5 s', () => {
    const c = clock();
    const lock = createDuplicateLock(5000, c.now);
    for (const method of ['post', 'PATCH', 'put']) {
      expect(lock.acquire(method, '/api/x')).toBe(true);
      c.advance(4999);
      expect(lock.acquire(method, '/api/x')).toBe(false);
    }
  });

  it('lets the same call through again after 5 s, or once the first has settled', () => {
    const c = clock();
    const lock = createDuplicateLock(5000, c.now);
    expect(lock.acquire('post', '/api/x')).toBe(true);
    c.advance(5000);
    expect(lock.acquire('post', '/api/x')).toBe(true);
    lock.release('post', '/api/x');
    expect(lock.acquire('post', '/api/x')).toBe(true);
  });

  it('never blocks GET or DELETE, other URLs, or calls that allow multiple requests', () => {
    const lock = createDuplicateLock(5000, () => 0);
    expect(lock.acquire('post', '/api/a')).toBe(true);
    expect(lock.acquire('post', '/api/b')).toBe(true);
    expect(lock.acquire('get', '/api/a')).toBe(true);
    expect(lock.acquire('get', '/api/a')).toBe(true);
    expect(lock.acquire('delete', '/api/a')).toBe(true);
    expect(lock.acquire('post', '/api/a', true)).toBe(true);
  });
});
