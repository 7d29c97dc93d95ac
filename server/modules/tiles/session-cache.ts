import type { PeekableSessionResolver, SessionResolver } from '../../http/guard.js';
import type { SessionUser } from '../../http/types.js';
import { Lru } from './lru.js';

export interface CachedSessionResolver extends PeekableSessionResolver {
  /** The session if it was resolved less than `ttlMs` ago (undefined = ask `resolve`); keeps the tile hot path synchronous. */
  peek(token: string): SessionUser | null | undefined;
  /** Drops every cached answer for this session (logout), so this process refuses its token at once. */
  forget(tokenHash: string): void;
}

export interface SessionCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/**
 * A viewer asks for dozens of tiles a second with the same token; the guard's lookup costs three queries.
 * Answers (including "no such session") are kept for `ttlMs`, so a revoked or expired token, a locked user
 * or a changed role is noticed within that time (30 s by default) rather than at once. That delay is the
 * price of the hot path; a logout is noticed at once by the process that served it (`forget`), by other
 * processes within the TTL. Writes and everything outside tiles still go through the uncached guard.
 * Concurrent lookups of one token share a single query.
 */
export function cachedSessionResolver(resolve: SessionResolver, options: SessionCacheOptions = {}): CachedSessionResolver {
  const ttlMs = options.ttlMs ?? 30_000;
  const now = options.now ?? Date.now;
  const cache = new Lru<string, { session: SessionUser | null; at: number }>(options.maxEntries ?? 10_000);
  const inflight = new Map<string, Promise<SessionUser | null>>();
  /** Counts logouts seen. */
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
        // A logout while the query ran may have been read before it: then the answer is not kept.
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
  return resolver;
}
