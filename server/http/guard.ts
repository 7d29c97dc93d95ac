import type { FastifyInstance } from 'fastify';
import { pickLanguage } from '../i18n/translate.js';
import { forbidden, unauthenticated } from './errors.js';
import { hasPermission } from './access.js';
import type { SessionUser } from './types.js';

export type SessionResolver = (token: string) => Promise<SessionUser | null>;

/**
 * The permission guard every route goes through: language first, then the bearer token,
 * then the route's declared access. A route under /api without `config.access` is a startup error,
 * so no route can be added without deciding who may call it.
 */
export function registerGuard(app: FastifyInstance, resolveSession: SessionResolver): void {
  app.decorateRequest('lang', 'zh-CN');
  app.decorateRequest('auth', null);

  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api') && !route.config?.access && !route.url.startsWith('/api/docs')) {
      throw new Error(`route ${route.method} ${route.url} declares no access`);
    }
  });

  app.addHook('onRequest', async (request) => {
    request.lang = pickLanguage(header(request.headers['user-language']), header(request.headers['accept-language']));
    const token = bearer(header(request.headers.authorization));
    if (token) request.auth = await resolveSession(token);

    const access = request.routeOptions.config?.access;
    if (!access || access === 'public') return;
    if (!request.auth) throw unauthenticated();
    if (typeof access === 'object' && !hasPermission(request.auth, access.permission)) throw forbidden(access.permission);
  });
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function bearer(authorization?: string): string | undefined {
  const m = authorization?.match(/^Bearer\s+(.+)$/i);
  return m?.[1];
}
