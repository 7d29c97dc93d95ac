import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../server/i18n/translate.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { databaseSlideResolver } from '../../server/modules/slides/resolver.js';
import { tileFastLane } from '../../server/modules/tiles/fast-lane.js';
import { cachedSessionResolver } from '../../server/modules/tiles/session-cache.js';
import { TileService } from '../../server/modules/tiles/tile-service.js';
import { sessionFromToken } from '../../server/modules/users/queries.js';
import { call, databases, ingested, startApp, testApp, tokenFor, type Harness } from './harness.js';

/**
 * Issue 30: the IIIF and Deep Zoom routes answered no CORS and their preflight was a 404, although IIIF Image API
 * level 2 (which info.json claims) asks for CORS. IIIF_CORS_ORIGINS decides which other sites' pages may read them:
 * `*` (the default), a list of origins (which may also send the image cookie), or none. Errors, 304s and the tile
 * fast lane carry the same headers as the answers of the routes.
 */
const W = 1024, H = 768, LEVEL = 10; // ceil(log2(1024))
const VIEWER = 'http://viewer.example.org:8182';
const OTHER = 'https://elsewhere.example.net';
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-iiif-cors-'));
  fs.mkdirSync(path.join(dir, 'slides'));
  await generateDemoSlide({ out: path.join(dir, 'slides', 'cors.tiff'), width: W, height: H, tileSize: 256, mpp: 0.25, seed: 9, slideId: 'CORS' });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const acao = (res: { headers: Record<string, unknown> }) => res.headers['access-control-allow-origin'];

describe.each(databases)('CORS of the image routes [%s]', (kind) => {
  let h: Harness;
  /** One app per setting, on one database and slide folder. */
  const apps: Record<'any' | 'listed' | 'none', FastifyInstance> = {} as never;
  let token: string;
  let slide: string;
  let tile: string;
  const urls = () => [`/api/iiif/${slide}/info.json`, `/api/iiif/${slide}/full/!128,128/0/default.jpg`, `/api/tiles/${slide}.dzi`, tile];

  beforeAll(async () => {
    h = await startApp(kind);
    apps.any = await testApp(h.db, { dataDir: dir });
    apps.listed = await testApp(h.db, { dataDir: dir, iiifCorsOrigins: [VIEWER] });
    apps.none = await testApp(h.db, { dataDir: dir, iiifCorsOrigins: [] });
    token = await tokenFor(apps.any, 'admin');
    const bound = await call(apps.any, 'POST', '/api/data/kfb/bind', { token, payload: { path: 'slides/cors.tiff' } });
    expect(bound.statusCode, bound.body).toBe(200);
    slide = String((await ingested(apps.any, token, bound.json().data.id)).id);
    tile = `/api/tiles/${slide}_files/${LEVEL}/1_1.jpeg`;
  });
  afterAll(async () => {
    for (const app of Object.values(apps)) await app?.close();
    await h?.close();
  });

  const get = (app: FastifyInstance, url: string, headers: Record<string, string> = {}) => call(app, 'GET', url, { token, headers });
  const preflight = (app: FastifyInstance, url: string, headers: Record<string, string>): Promise<LightMyRequestResponse> =>
    app.inject({ method: 'OPTIONS', url, headers: { 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization', ...headers } });

  it('by default (*) lets any page read every image answer, errors included, without credentials', async () => {
    for (const url of urls()) {
      const res = await get(apps.any, url, { origin: OTHER });
      expect(res.statusCode, url).toBe(200);
      expect(acao(res), url).toBe('*');
      expect(res.headers['access-control-allow-credentials'], url).toBeUndefined();
    }
    // A viewer must see why it was refused or what is missing: 401, 404 and 304 carry it too.
    expect(acao(await call(apps.any, 'GET', `/api/iiif/${slide}/info.json`, { headers: { origin: OTHER } }))).toBe('*');
    expect(acao(await get(apps.any, '/api/iiif/999999/info.json', { origin: OTHER }))).toBe('*');
    const first = await get(apps.any, tile);
    expect(acao(await get(apps.any, tile, { origin: OTHER, 'if-none-match': String(first.headers.etag) }))).toBe('*');

    const pre = await preflight(apps.any, `/api/iiif/${slide}/info.json`, { origin: OTHER });
    expect(pre.statusCode).toBe(204);
    expect(acao(pre)).toBe('*');
    expect(String(pre.headers['access-control-allow-methods'])).toMatch(/\bGET\b/);
    // Authorization is never covered by a wildcard: it is named.
    expect(String(pre.headers['access-control-allow-headers'])).toMatch(/\bAuthorization\b/);
    expect(Number(pre.headers['access-control-max-age'])).toBeGreaterThan(0);
    expect((await preflight(apps.any, tile, { origin: OTHER })).statusCode).toBe(204);
  });

  it('with a list, names a listed origin back with credentials and gives any other none', async () => {
    for (const url of urls()) {
      const res = await get(apps.listed, url, { origin: VIEWER });
      expect(res.statusCode, url).toBe(200);
      expect([acao(res), res.headers['access-control-allow-credentials']], url).toEqual([VIEWER, 'true']);
      expect(String(res.headers.vary), url).toMatch(/\bOrigin\b/);
      const other = await get(apps.listed, url, { origin: OTHER });
      expect(other.statusCode, url).toBe(200);
      expect(acao(other), url).toBeUndefined();
      expect(String(other.headers.vary), url).toMatch(/\bOrigin\b/);
    }
    // The image cookie from the listed site's page: a credentialed request.
    const viaCookie = await call(apps.listed, 'GET', `/api/iiif/${slide}/info.json`, { headers: { origin: VIEWER, cookie: `dsms_image=${token}` } });
    expect([viaCookie.statusCode, acao(viaCookie)]).toEqual([200, VIEWER]);

    const pre = await preflight(apps.listed, `/api/iiif/${slide}/full/max/0/default.jpg`, { origin: VIEWER });
    expect(pre.statusCode).toBe(204);
    expect([acao(pre), pre.headers['access-control-allow-credentials']]).toEqual([VIEWER, 'true']);
    expect(String(pre.headers['access-control-allow-headers'])).toMatch(/\bAuthorization\b/);
    const refused = await preflight(apps.listed, `/api/iiif/${slide}/info.json`, { origin: OTHER, 'user-language': 'en-US' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: translate('en-US', 'iiif.cors_origin_refused', { origin: OTHER }) });
    expect(acao(refused)).toBeUndefined();
    // A plain OPTIONS (no Origin: not a browser's preflight) says what the routes answer.
    const plain = await apps.listed.inject({ method: 'OPTIONS', url: tile });
    expect([plain.statusCode, plain.headers.allow]).toEqual([204, 'GET, HEAD, OPTIONS']);
  });

  it('with none, grants no page and refuses every preflight', async () => {
    const res = await get(apps.none, `/api/iiif/${slide}/info.json`, { origin: VIEWER });
    expect(res.statusCode).toBe(200);
    expect(acao(res)).toBeUndefined();
    expect((await preflight(apps.none, `/api/iiif/${slide}/info.json`, { origin: VIEWER })).statusCode).toBe(403);
  });

  it('leaves the rest of the API without CORS', async () => {
    for (const app of [apps.any, apps.listed]) {
      const res = await get(app, '/api/auth/user_info', { origin: VIEWER });
      expect(acao(res)).toBeUndefined();
      expect((await app.inject({ method: 'OPTIONS', url: '/api/auth/user_info', headers: { origin: VIEWER, 'access-control-request-method': 'GET' } })).headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('sends the same CORS headers from the tile fast lane as from the route', async () => {
    for (const [setting, app] of [[[VIEWER], apps.listed], ['*', apps.any]] as const) {
      const service = new TileService({ resolveSlide: databaseSlideResolver(h.db, dir) });
      const sessions = cachedSessionResolver((t) => sessionFromToken(h.db, t));
      const lane = tileFastLane(service, sessions, setting);
      // What the lane passes on gets 599, so each answer below is the lane's own.
      const server = http.createServer((req, res) => { if (!lane(req, res)) res.writeHead(599).end(); });
      const base = await new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
      try {
        await sessions(token);
        await service.dziTile(await service.open(slide), LEVEL, 1, 1);
        for (const origin of [VIEWER, OTHER]) {
          const headers = { authorization: `Bearer ${token}`, origin };
          const fromLane = await fetchHeaders(base, tile, headers);
          const fromRoute = await get(app, tile, { origin });
          expect(fromLane.status).toBe(200);
          for (const name of ['access-control-allow-origin', 'access-control-allow-credentials', 'vary']) {
            expect(fromLane.headers[name], `${String(setting)} ${origin} ${name}`).toBe(fromRoute.headers[name] === undefined ? undefined : String(fromRoute.headers[name]));
          }
          const revalidated = await fetchHeaders(base, tile, { ...headers, 'if-none-match': String(fromRoute.headers.etag) });
          expect([revalidated.status, revalidated.headers['access-control-allow-origin']]).toEqual([304, fromLane.headers['access-control-allow-origin']]);
        }
      } finally {
        await new Promise((r) => server.close(r));
        service.close();
      }
    }
  });
});

function fetchHeaders(base: string, url: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http.get(new URL(url, base), { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    }).on('error', reject);
  });
}
