import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every response. One list serves Fastify (the hook below) and the tile fast lane, which
 * answers outside Fastify (fast-lanes.ts) and must send the same headers; that is why this is a short hook and
 * not @fastify/helmet, whose header set would have to be copied by hand for the lane.
 */

/** Sent on every answer: API, site, tiles. */
const COMMON: Record<string, string> = {
  // A file is what its Content-Type says (an uploaded text is never run as a script or style).
  'x-content-type-options': 'nosniff',
  // Addresses can carry case ids and `?token=`; nothing goes to other sites, nor inside this one.
  'referrer-policy': 'no-referrer',
  // frame-ancestors for browsers that do not read CSP: only our own pages (InnerIframe) may frame us.
  'x-frame-options': 'SAMEORIGIN',
};

/**
 * API answers (JSON, images, downloads) are never pages: if one is opened as a document (an uploaded SVG or
 * HTML), it may load and run nothing.
 */
export const API_POLICY = "default-src 'none'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'";

/**
 * The built app (index.html, its scripts and the upload worker, whose policy comes from its own response).
 * - script-src 'unsafe-eval': the forms validate with ajv (@rjsf/validator-ajv8), which compiles schemas to
 *   functions at run time; inline scripts stay forbidden, so injected markup still cannot run.
 * - style-src 'unsafe-inline': Fluent UI (griffel) and the theme write <style> elements at run time, and
 *   index.html has one small inline style; styles cannot run code.
 * - frame-src: our own pages plus the origins an administrator lets InnerIframe embed (CSP_FRAME_SRC).
 */
export function sitePolicy(frameSources: readonly string[] = [], connectSources: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    // connect-src: plus the realtime broker when it is not this site (RabbitMQ's Web-MQTT port).
    `connect-src ${["'self'", ...connectSources].join(' ')}`,
    "worker-src 'self'",
    `frame-src ${["'self'", ...frameSources].join(' ')}`,
    "frame-ancestors 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

/** The Swagger UI at /api/docs: its own scripts and styles, nothing from elsewhere (its default also asks validator.swagger.io). */
export const SWAGGER_UI_POLICY = "default-src 'self'; base-uri 'self'; font-src 'self' data:; frame-ancestors 'self'; img-src 'self' data:; object-src 'none'; script-src 'self'; script-src-attr 'none'; style-src 'self' 'unsafe-inline'; form-action 'self'";

/** The headers of an /api answer as `writeHead` pairs, for the tile fast lane. */
export const API_HEADER_PAIRS: readonly string[] = Object.entries({ ...COMMON, 'content-security-policy': API_POLICY }).flat();

/**
 * Adds the headers to every Fastify answer, errors and 404s included. A route that set its own CSP keeps it
 * (the Swagger UI at /api/docs brings its own).
 */
export function registerSecurityHeaders(app: FastifyInstance, frameSources: readonly string[] = [], connectSources: readonly string[] = []): void {
  const site = sitePolicy(frameSources, connectSources);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.headers(COMMON);
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', isApi(request.url) ? API_POLICY : site);
    done(null, payload);
  });
}

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
