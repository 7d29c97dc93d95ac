import type { PeekableSessionResolver, SessionResolver } from '../../http/guard.js';
import type { SessionUser } from '../../http/types.js';
import { Lru } from './lru.js';

export interface CachedSessionResolver extends PeekableSessionResolver {
  /** The session if it was resolved less than `ttlMs` ago (undefined = ask `resolve`); keeps the tile hot path synchronous. */
  peek(token: string): SessionUser | null | undefined;
  /** Drops every cached answer for this session (logout), so this process refuses its token at once. */
  forget(tokenHash: string): void;
  /** Drops every cached session of this user (an administrator changed their hospitals, roles or status). */
  forgetUser(userId: number): void;
  /** Drops everything (a role's permissions changed: every holder's session may differ). */
  forgetAll(): void;
}

/** How long a checked session is trusted without asking the database again: the longest an administrator's change takes to reach tiles in another process. */
export const SESSION_CACHE_TTL_MS = 5_000;

export interface SessionCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/**
 * A viewer asks for dozens of tiles a second with the same token; each lookup is a database round trip.
 * Answers (including "no such session") are kept for `ttlMs` (5 s by default), so a revoked or expired token,
 * a locked user, a changed role or a hospital the user was removed from is noticed by image requests within
 * that time rather than at once. That delay is the price of the hot path (one lookup per viewer per 5 s);
 * the process that made the change notices it at once: a logout through `forget`, an administrator's change
 * to a user through `forgetUser`, to a role through `forgetAll`. Writes and everything outside the image
 * routes still go through the uncached guard. Concurrent lookups of one token share a single query.
 */
export function cachedSessionResolver(resolve: SessionResolver, options: SessionCacheOptions = {}): CachedSessionResolver {
  const ttlMs = options.ttlMs ?? SESSION_CACHE_TTL_MS;
  const now = options.now ?? Date.now;
  const cache = new Lru<string, { session: SessionUser | null; at: number }>(options.maxEntries ?? 10_000);
  const inflight = new Map<string, Promise<SessionUser | null>>();
  /** Counts forgets seen: an answer read before one is not kept. */
  let forgotten = 0;

  const peek = (token: string) => {
    const hit = cache.get(token);
    if (!hit) return undefined;
    if (now() - hit.at >= ttlMs) {
      cache.delete(token);
      return undefined;
    }
    return hit.session;
  };

  const resolver = (async (token: string) => {
    const fresh = peek(token);
    if (fresh !== undefined) return fresh;
    let pending = inflight.get(token);
    if (!pending) {
      const asked = forgotten;
      pending = resolve(token).then((session) => {
        // A logout or change while the query ran may have been read before it: then the answer is not kept.
        if (asked === forgotten) cache.set(token, { session, at: now() });
        return session;
      }).finally(() => inflight.delete(token));
      inflight.set(token, pending);
    }
    return pending;
  }) as CachedSessionResolver;
  resolver.peek = peek;
  // A scan, not an index: logouts are rare, and the hot path should not pay for a second map.
  resolver.forget = (tokenHash) => {
    forgotten++;
    for (const [token, hit] of cache.entries()) if (hit.session?.tokenHash === tokenHash) cache.delete(token);
  };
  resolver.forgetUser = (userId) => {
    forgotten++;
    for (const [token, hit] of cache.entries()) if (hit.session?.id === userId) cache.delete(token);
  };
  resolver.forgetAll = () => {
    forgotten++;
    cache.clear();
  };
  return resolver;
}
