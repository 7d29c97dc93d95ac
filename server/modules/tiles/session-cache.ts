import type { SessionResolver } from '../../http/guard.js';
import type { SessionUser } from '../../http/types.js';
import { Lru } from './lru.js';

export interface CachedSessionResolver extends SessionResolver {
  /** The session if it was resolved less than `ttlMs` ago (undefined = ask `resolve`); keeps the tile hot path synchronous. */
  peek(token: string): SessionUser | null | undefined;
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
 * price of the hot path; writes and everything outside tiles still go through the uncached guard.
 * Concurrent lookups of one token share a single query.
 */
export function cachedSessionResolver(resolve: SessionResolver, options: SessionCacheOptions = {}): CachedSessionResolver {
  const ttlMs = options.ttlMs ?? 30_000;
  const now = options.now ?? Date.now;
  const cache = new Lru<string, { session: SessionUser | null; at: number }>(options.maxEntries ?? 10_000);
  const inflight = new Map<string, Promise<SessionUser | null>>();

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
      pending = resolve(token).then((session) => {
        cache.set(token, { session, at: now() });
        return session;
      }).finally(() => inflight.delete(token));
      inflight.set(token, pending);
    }
    return pending;
  }) as CachedSessionResolver;
  resolver.peek = peek;
  return resolver;
}
