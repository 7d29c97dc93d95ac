import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pickLanguage } from '../i18n/translate.js';
import { forbidden, unauthenticated } from './errors.js';
import { hasPermission } from './access.js';
import { openWhileScreenLocked, screenLocked } from './screen-lock.js';
import type { Access, SessionUser } from './types.js';

export type SessionResolver = (token: string) => Promise<SessionUser | null>;

/** A resolver with a synchronous look at what it already knows (undefined: ask it). */
export interface PeekableSessionResolver extends SessionResolver {
  peek(token: string): SessionUser | null | undefined;
}

/**
 * The permission guard every route goes through: language first, then the bearer token,
 * then the route's declared access. A route under /api without `config.access` is a startup error,
 * so no route can be added without deciding who may call it.
 * Routes that set `config.cachedSession` (tiles: dozens a second per viewer, reads only) take the session
 * from `cached`; on a hit the hook finishes without a promise. Every other route asks `resolveSession` (one
 * statement) afresh: a revocation, removal or lock made by another process or straight in the database counts from
 * the next request, which a cache, even of seconds, would give up.
 * A session whose screen is locked is refused (423) everywhere but the few routes of screen-lock.ts; checked again
 * before validation for sessions a route's own hook attached (the image routes' cookie).
 */
export function registerGuard(app: FastifyInstance, resolveSession: SessionResolver, cached?: PeekableSessionResolver): void {
  app.decorateRequest('lang', 'zh-CN');
  app.decorateRequest('auth', null);

  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api') && !route.config?.access && !route.url.startsWith('/api/docs')) {
      throw new Error(`route ${route.method} ${route.url} declares no access`);
    }
  });

  app.addHook('onRequest', (request, _reply, done) => {
    request.lang = pickLanguage(header(request.headers['user-language']), header(request.headers['accept-language']));
    const config = request.routeOptions.config;
    const token = bearerToken(request.headers.authorization);
    if (!token) return done(refusal(request, config?.access));
    const hit = config?.cachedSession ? cached?.peek(token) : undefined;
    if (hit !== undefined) {
      request.auth = hit;
      return done(refusal(request, config?.access));
    }
    (config?.cachedSession && cached ? cached : resolveSession)(token).then((session) => {
      request.auth = session;
      done(refusal(request, config?.access));
    }, done);
  });

  app.addHook('preValidation', (request, _reply, done) => done(lockRefusal(request)));
}

function lockRefusal(request: FastifyRequest): Error | undefined {
  if (!request.auth?.screenLocked) return undefined;
  const call = { method: request.method, url: request.routeOptions.url, params: request.params };
  return openWhileScreenLocked(call, request.auth) ? undefined : screenLocked();
}

/** Why the request may not go on, or undefined when it may. */
function refusal(request: FastifyRequest, access: Access | undefined): Error | undefined {
  if (!access || access === 'public') return undefined;
  if (!request.auth) return unauthenticated();
  const locked = lockRefusal(request);
  if (locked) return locked;
  if (typeof access !== 'object') return undefined;
  const codes = [access.permission].flat();
  return codes.some((code) => hasPermission(request.auth!, code)) ? undefined : forbidden(codes.join(' / '));
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** The token of an `Authorization: Bearer …` header. */
export function bearerToken(authorization: string | string[] | undefined): string | undefined {
  const m = header(authorization)?.match(/^Bearer\s+(.+)$/i);
  return m?.[1];
}
