import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../server/i18n/translate.js';
import { hashToken } from '../../server/modules/auth/tokens.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { tileFastLane } from '../../server/modules/tiles/fast-lane.js';
import { databaseSlideResolver } from '../../server/modules/slides/resolver.js';
import { cachedSessionResolver } from '../../server/modules/tiles/session-cache.js';
import { TileService } from '../../server/modules/tiles/tile-service.js';
import { sessionFromToken } from '../../server/modules/users/queries.js';
import { call, databases, ingested, startApp, testApp, tokenFor, type Harness } from './harness.js';

/**
 * The tile fast lane (server/modules/tiles/fast-lane.ts) answers cached tiles before Fastify's router. It only
 * works on a real socket (app.inject goes straight to Fastify), so these tests speak HTTP to a listening server.
 */
const W = 2048, H = 1536, LEVEL = 11; // ceil(log2(2048))
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-fast-lane-'));
  fs.mkdirSync(path.join(dir, 'slides'));
  await generateDemoSlide({ out: path.join(dir, 'slides', 'lane.tiff'), width: W, height: H, tileSize: 256, mpp: 0.25, seed: 3, slideId: 'LANE' });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Answer { status: number; headers: http.IncomingHttpHeaders; body: Buffer }

function get(base: string, url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http.get(new URL(url, base), { method, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
    }).on('error', reject);
  });
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

describe.each(databases)('tile fast lane [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let token: string;
  let base: string;
  beforeAll(async () => {
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir: dir });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    token = await tokenFor(app, 'admin');
    // Bound where it lies: slides are reached by id only (issue 27).
    const bound = await call(app, 'POST', '/api/data/kfb/bind', { token, payload: { path: 'slides/lane.tiff' } });
    expect(bound.statusCode, bound.body).toBe(200);
    slide = String((await ingested(app, token, bound.json().data.id)).id);
    tile = `/api/tiles/${slide}_files/${LEVEL}/2_1.jpeg`;
  });
  afterAll(async () => {
    await app.close();
    await h.close();
  });

  /** The bound slide's id, and a tile of it. */
  let slide: string;
  let tile: string;

  it('answers only what it already holds, with the bytes and headers of the route, and passes everything else on', async () => {
    const service = new TileService({ resolveSlide: databaseSlideResolver(h.db, dir) });
    const sessions = cachedSessionResolver((t) => sessionFromToken(h.db, t));
    const lane = tileFastLane(service, sessions);
    // What the lane passes on gets 599 here, so every answer below says which side gave it.
    const server = http.createServer((req, res) => { if (!lane(req, res)) res.writeHead(599).end(); });
    const laneBase = await listen(server);
    try {
      const cookie = { cookie: `other=1; dsms_image=${token}` };
      expect((await get(laneBase, tile, cookie)).status).toBe(599); // nothing known yet
      await sessions(token);
      expect((await get(laneBase, tile, cookie)).status).toBe(599); // slide not opened
      const handle = await service.open(slide);
      expect((await get(laneBase, tile, cookie)).status).toBe(599); // tile not cached
      await service.dziTile(handle, LEVEL, 2, 1);

      const fromLane = await get(laneBase, tile, cookie);
      const fromRoute = await call(app, 'GET', tile, { headers: cookie });
      expect(fromLane.status).toBe(200);
      expect(fromLane.body.equals(fromRoute.rawPayload)).toBe(true);
      for (const name of ['etag', 'cache-control', 'content-type', 'content-length']) expect(fromLane.headers[name], name).toBe(String(fromRoute.headers[name]));
      expect((await get(laneBase, tile, { authorization: `Bearer ${token}` })).status).toBe(200);
      const revalidated = await get(laneBase, tile, { ...cookie, 'if-none-match': `W/"x", ${fromLane.headers.etag}` });
      expect([revalidated.status, revalidated.body.length, revalidated.headers.etag]).toEqual([304, 0, fromLane.headers.etag]);

      // Not for the lane: no token, an unknown one, a token in the query, any query, HEAD, a tile not in memory, other routes.
      for (const [url, headers, method] of [
        [tile, {}, 'GET'], [tile, { cookie: 'dsms_image=nope' }, 'GET'], [`${tile}?token=${token}`, {}, 'GET'], [`${tile}?x=1`, cookie, 'GET'],
        [tile, cookie, 'HEAD'], [`/api/tiles/${slide}_files/${LEVEL}/3_1.jpeg`, cookie, 'GET'], [`/api/tiles/${slide}.dzi`, cookie, 'GET'],
      ] as const) expect((await get(laneBase, url, headers, method)).status, `${method} ${url}`).toBe(599);

      sessions.forget(hashToken(token));
      expect((await get(laneBase, tile, cookie)).status).toBe(599);
      await sessions(token);
      lane.close();
      expect((await get(laneBase, tile, cookie)).status).toBe(599);
    } finally {
      await new Promise((r) => server.close(r));
      service.close();
    }
  });

  it('serves the same tile from the router and then from the lane, and refuses a logged-out token on both paths', async () => {
    const own = await tokenFor(app, 'technician');
    const first = await get(base, tile, { authorization: `Bearer ${own}` });
    const again = await get(base, tile, { authorization: `Bearer ${own}` });
    const viaCookie = await get(base, tile, { cookie: `dsms_image=${own}` });
    for (const res of [first, again, viaCookie]) {
      expect(res.status).toBe(200);
      expect(res.body.equals(first.body)).toBe(true);
      expect(res.headers.etag).toBe(first.headers.etag);
    }
    expect((await call(app, 'POST', '/api/auth/logout', { token: own })).statusCode).toBe(200);
    for (const res of [await get(base, tile, { authorization: `Bearer ${own}`, 'user-language': 'en-US' }), await get(base, tile, { cookie: `dsms_image=${own}`, 'user-language': 'en-US' })]) {
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body.toString())).toEqual({ message: translate('en-US', 'error.unauthenticated') });
    }
  });

  it("never answers a tile of a slide from a hospital that is not the user's (the route then says 404)", async () => {
    const file = path.join(dir, 'slides', 'lane.tiff');
    const own = (await h.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    // 'nobody': a file of no hospital, as the file-name path once served (issue 27).
    const service = new TileService({ resolveSlide: async (key) => ({ file, hospitalId: key === 'foreign' ? 999_999 : key === 'nobody' ? undefined : own }) });
    const sessions = cachedSessionResolver((t) => sessionFromToken(h.db, t));
    const lane = tileFastLane(service, sessions);
    const server = http.createServer((req, res) => { if (!lane(req, res)) res.writeHead(599).end(); });
    const laneBase = await listen(server);
    try {
      await sessions(token);
      for (const key of ['foreign', 'open', 'nobody']) {
        const handle = await service.open(key);
        await service.dziTile(handle, LEVEL, 2, 1);
      }
      expect((await get(laneBase, `/api/tiles/open_files/${LEVEL}/2_1.jpeg`, { cookie: `dsms_image=${token}` })).status).toBe(200);
      expect((await get(laneBase, `/api/tiles/foreign_files/${LEVEL}/2_1.jpeg`, { cookie: `dsms_image=${token}` })).status).toBe(599);
      expect((await get(laneBase, `/api/tiles/nobody_files/${LEVEL}/2_1.jpeg`, { cookie: `dsms_image=${token}` })).status).toBe(599);
    } finally {
      server.close();
    }
  });
});
