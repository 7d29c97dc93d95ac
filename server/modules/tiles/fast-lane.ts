import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerToken } from '../../http/guard.js';
import type { CorsOrigins } from '../../config-http.js';
import type { FastLane } from '../../http/fast-lanes.js';
import { imageCookieToken } from '../../http/image-cookie.js';
import { API_HEADER_PAIRS } from '../../http/security-headers.js';
import { corsHeaderPairs } from './cors.js';
import { mayViewImages } from './image-access.js';
import type { CachedSessionResolver } from './session-cache.js';
import { etagMatches, IMMUTABLE } from './tile-http.js';
import { mayView, type TileService } from './tile-service.js';

/**
 * `/api/tiles/{key}_files/{level}/{col}_{row}.jpeg`, no query. Only characters that URL decoding leaves alone,
 * so the key read here is the key Fastify's router would hand the route; anything else takes the full path.
 */
const TILE_URL = /^\/api\/tiles\/([^/?%]+)_files\/(\d{1,2})\/(\d{1,7})_(\d{1,7})\.(?:jpeg|jpg)$/;

/**
 * The Deep Zoom tile hot path, answered before Fastify sees the request. A viewer asks for ~50 tiles a second,
 * nearly all already in memory; routing, hooks, the reply object and their promises cost more than the tile itself
 * (profile of scripts/bench/tiles.ts). This lane answers only when everything is already known, synchronously:
 * a session this process has checked (the guard's cache: header first, then the image cookie, as the routes do)
 * that holds `slide_view`, a slide opened moments ago, and the tile in the tile cache (or a matching If-None-Match).
 * Anything else — a miss, an unknown or refused token, no permission, an error, HEAD, a query string, a closing
 * server — returns false and goes through the routes, which do the full work, fill the caches and answer errors in
 * the caller's language. Both paths send the same bytes and headers (tile-http.ts, and cors.ts for `cors`, the
 * IIIF_CORS_ORIGINS setting; default `*` as config.ts).
 */
export function tileFastLane(service: TileService, sessions: CachedSessionResolver, cors: CorsOrigins = '*'): FastLane & { close(): void } {
  let open = true;
  const lane = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (!open || req.method !== 'GET') return false;
    const m = TILE_URL.exec(req.url!);
    if (!m) return false;
    const fromHeader = req.headers.authorization ? bearerToken(req.headers.authorization) : undefined;
    let session = fromHeader ? sessions.peek(fromHeader) : undefined;
    if (!session) {
      const fromCookie = imageCookieToken(req.headers.cookie);
      session = fromCookie ? sessions.peek(fromCookie) : undefined;
    }
    // No slide_view, or the session's screen is locked: the route answers (403, 423), the lane does not.
    if (!session || session.screenLocked || !mayViewImages(session)) return false;
    const handle = service.peek(m[1]);
    // Another hospital's slide: the route answers (404), the lane does not.
    if (!handle || !mayView(handle, session)) return false;
    const level = Number(m[2]), col = Number(m[3]), row = Number(m[4]);
    const etag = service.dziEtag(handle, level, col, row);
    if (etagMatches(req.headers['if-none-match'], etag)) {
      res.writeHead(304, ['etag', etag, 'cache-control', IMMUTABLE, ...API_HEADER_PAIRS, ...corsHeaderPairs(cors, req.headers.origin)]);
      res.end();
      return true;
    }
    const image = service.peekDziTile(handle, level, col, row);
    if (!image) return false;
    res.writeHead(200, [
      'etag', etag, 'cache-control', IMMUTABLE, 'content-type', image.contentType, 'content-length', String(image.body.length),
      ...API_HEADER_PAIRS, ...corsHeaderPairs(cors, req.headers.origin),
    ]);
    res.end(image.body);
    return true;
  };
  return Object.assign(lane, { close: () => { open = false; } });
}
