import type { FastifyInstance, FastifyReply } from 'fastify';
import type { CorsOrigins } from '../../config-http.js';
import { AppError } from '../../http/errors.js';

/**
 * CORS for the image routes: IIIF (Image API and case manifests) and Deep Zoom, shared links' tiles included. IIIF
 * Image API level 2 asks for it: a viewer on another site (Mirador, a research tool) reads info.json and tiles with
 * fetch. Which sites may is IIIF_CORS_ORIGINS (config-http.ts). One function makes the headers, so the tile fast
 * lane (fast-lane.ts), which answers outside Fastify, sends what the routes send.
 */
export const isImageRoute = (url: string): boolean => url.startsWith('/api/iiif/') || url.startsWith('/api/tiles/');

const METHODS = 'GET, HEAD, OPTIONS';
/** What a page elsewhere may send besides the safelisted headers: its bearer token, revalidation, its language. */
const REQUEST_HEADERS = 'Authorization, If-None-Match, User-Language';
/** Seconds a browser may keep a preflight's answer. */
const PREFLIGHT_MAX_AGE = '600';

const allows = (allowed: CorsOrigins, origin: string | undefined): boolean => allowed === '*' || (!!origin && allowed.includes(origin));

/**
 * The CORS headers of an image answer to a request from `origin`. `*`: any page, without credentials (the image
 * cookie is never honoured for another site: a browser does not send it, nor shows the answer, under `*`). A listed
 * origin is named back and may send credentials; any other gets no grant. The answer varies with Origin then.
 */
export function corsHeaders(allowed: CorsOrigins, origin: string | undefined): Record<string, string> {
  if (allowed === '*') return { 'access-control-allow-origin': '*' };
  if (!origin || !allowed.includes(origin)) return { vary: 'Origin' };
  return { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'Origin' };
}

/** `corsHeaders` as `writeHead` pairs, for the fast lane. */
export function corsHeaderPairs(allowed: CorsOrigins, origin: string | undefined): string[] {
  return Object.entries(corsHeaders(allowed, origin)).flat();
}

/** Adds the CORS headers to every answer of the image routes (errors, 304s and 404s included) and answers preflights. */
export function registerImageCors(app: FastifyInstance, allowed: CorsOrigins): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isImageRoute(request.url)) setHeaders(reply, corsHeaders(allowed, request.headers.origin));
    done(null, payload);
  });
  // A preflight carries no credentials: it is answered before any session is looked for (public). HTTP's own
  // machinery, not an operation of the API: left out of the OpenAPI document (whose paths cannot name a wildcard).
  for (const url of ['/api/iiif/*', '/api/tiles/*']) {
    app.options(url, {
      config: { access: 'public', audit: false },
      schema: { hide: true },
      logLevel: 'warn',
    }, async (request, reply) => {
      const origin = request.headers.origin;
      if (!origin) return reply.code(204).header('allow', METHODS).send();
      if (!allows(allowed, origin)) throw new AppError(403, 'iiif.cors_origin_refused', { origin: origin.slice(0, 200) });
      return reply.code(204).headers({
        'access-control-allow-methods': METHODS, 'access-control-allow-headers': REQUEST_HEADERS, 'access-control-max-age': PREFLIGHT_MAX_AGE,
      }).send();
    });
  }
}

/** Sets the headers, adding to a Vary the answer already has rather than replacing it. */
function setHeaders(reply: FastifyReply, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    const had = name === 'vary' ? reply.getHeader('vary') : undefined;
    reply.header(name, had && !String(had).split(/\s*,\s*/).includes(value) ? `${String(had)}, ${value}` : value);
  }
}
