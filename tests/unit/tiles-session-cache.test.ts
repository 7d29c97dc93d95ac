import { describe, expect, it } from 'vitest';
import type { SessionUser } from '../../server/http/types.js';
import { cachedSessionResolver } from '../../server/modules/tiles/session-cache.js';

const user = (id: number): SessionUser => ({
  id, name: `u${id}`, realname: '', identification: [], permissions: [], hospitalIds: [], hospitalId: null, tokenHash: `h${id}`,
});

describe('tile session cache', () => {
  it('asks the database once per token per TTL, and notices a revoked token when the TTL has passed', async () => {
    let now = 0;
    let revoked = false;
    const calls: string[] = [];
    const resolve = cachedSessionResolver(async (token) => {
      calls.push(token);
      return revoked ? null : user(1);
    }, { ttlMs: 30_000, now: () => now });

    expect(await resolve('t')).toEqual(user(1));
    now = 29_999;
    revoked = true;
    expect(resolve.peek('t')).toEqual(user(1)); // still trusted inside the TTL: the documented delay
    now = 30_000;
    expect(resolve.peek('t')).toBeUndefined();
    expect(await resolve('t')).toBeNull();
    expect(calls).toEqual(['t', 't']);
  });

  it('shares one lookup between concurrent requests and remembers unknown tokens too', async () => {
    let calls = 0;
    const resolve = cachedSessionResolver(async (token) => {
      calls++;
      await new Promise((r) => setTimeout(r, 5));
      return token === 'good' ? user(2) : null;
    });
    const results = await Promise.all(Array.from({ length: 20 }, () => resolve('good')));
    expect(results.every((r) => r?.id === 2)).toBe(true);
    expect(await resolve('bad')).toBeNull();
    expect(resolve.peek('bad')).toBeNull();
    expect(calls).toBe(2);
  });

  it('forgets a logged-out session at once, and does not keep an answer read before the logout', async () => {
    let release!: () => void;
    const slow = new Promise<void>((r) => { release = r; });
    const resolve = cachedSessionResolver(async (token) => {
      if (token === 'slow') await slow;
      return user(token === 'other' ? 5 : 4);
    });
    await resolve('a');
    await resolve('b');
    await resolve('other');
    const inFlight = resolve('slow');
    resolve.forget('h4');
    expect([resolve.peek('a'), resolve.peek('b')]).toEqual([undefined, undefined]);
    expect(resolve.peek('other')).toEqual(user(5));
    release();
    expect(await inFlight).toEqual(user(4));
    expect(resolve.peek('slow')).toBeUndefined();
  });

  it("forgets a user's sessions at once when an administrator changes them, and everything when a role changes", async () => {
    let release!: () => void;
    const slow = new Promise<void>((r) => { release = r; });
    const resolve = cachedSessionResolver(async (token) => {
      if (token === 'slow') await slow;
      return user(token.startsWith('six') || token === 'slow' ? 6 : 7);
    });
    await Promise.all(['six-a', 'six-b', 'seven'].map((t) => resolve(t)));
    const inFlight = resolve('slow');
    resolve.forgetUser(6);
    expect([resolve.peek('six-a'), resolve.peek('six-b')]).toEqual([undefined, undefined]);
    expect(resolve.peek('seven')).toEqual(user(7));
    release();
    await inFlight;
    expect(resolve.peek('slow')).toBeUndefined(); // read before the change: not kept
    resolve.forgetAll();
    expect(resolve.peek('seven')).toBeUndefined();
  });

  it('trusts a session for 5 seconds by default', async () => {
    let now = 0;
    const resolve = cachedSessionResolver(async () => user(8), { now: () => now });
    await resolve('t');
    now = 4_999;
    expect(resolve.peek('t')).toEqual(user(8));
    now = 5_000;
    expect(resolve.peek('t')).toBeUndefined();
  });

  it('stays bounded', async () => {
    const resolve = cachedSessionResolver(async () => user(3), { maxEntries: 2 });
    for (const t of ['a', 'b', 'c']) await resolve(t);
    expect(resolve.peek('a')).toBeUndefined();
    expect(resolve.peek('c')).toEqual(user(3));
  });
});
