import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../server/i18n/translate.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { call, databases, ingested, startApp, testApp, tokenFor, userId, type Harness } from './harness.js';
import { realSlide, realSlides } from '../support/real-slides.js';

/**
 * Issue 27, finding A: a file an operator put under slides/ and bound to a hospital kept its file name, and the image
 * routes also resolved keys as file names (a fallback with no hospital), so a user of another hospital read the
 * slide by its name while its id answered 404. Now every image route reaches slides through the slides table only:
 * by name nothing is served, to anyone, on any image route or the tile fast lane; by id the hospital decides.
 */
const FILES: { file: string; name: string; tile: string }[] = [{ file: 'demosecret.tiff', name: 'demosecret', tile: '9/0_0.jpeg' }];
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-slide-names-'));
  fs.mkdirSync(path.join(dir, 'slides'));
  await generateDemoSlide({ out: path.join(dir, 'slides', 'demosecret.tiff'), width: 512, height: 384, mpp: 0.5, seed: 27, slideId: 'SECRET-27', label: true });
  // The probe's own file: CMU-1-Small-Region.svs placed as slides/cmusecret.svs.
  if (realSlides('CMU-1-Small-Region.svs')) {
    fs.copyFileSync(realSlide('CMU-1-Small-Region.svs'), path.join(dir, 'slides', 'cmusecret.svs'));
    FILES.push({ file: 'cmusecret.svs', name: 'cmusecret', tile: '12/3_4.jpeg' });
  }
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.each(databases)('slides only by id, never by file name [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let base: string;
  let admin: string;
  let outsider: string;
  const ids = new Map<string, number>();

  beforeAll(async () => {
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir: dir });
    // Listening: the tile fast lane only sees real sockets.
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    admin = await tokenFor(app, 'admin');
    // A slide_view holder of the branch only (the technician, moved there).
    const [general, branch] = (await h.db.selectFrom('hospitals').select('id').orderBy('id').execute()).map((r) => r.id);
    await h.db.updateTable('user_hospitals').set({ hospital_id: branch }).where('user_id', '=', await userId(h.db, 'technician')).execute();
    outsider = await tokenFor(app, 'technician');
    for (const { file } of FILES) {
      // The administrator, working in the general hospital, binds the operator's file there (bind by path).
      const bound = await call(app, 'POST', '/api/data/kfb/bind', { token: admin, payload: { path: `slides/${file}` } });
      expect(bound.statusCode, bound.body).toBe(200);
      const row = await ingested(app, admin, bound.json().data.id);
      expect(row).toMatchObject({ status: 'ready', hospital_id: general });
      ids.set(file, row.id);
    }
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  /** Every image route of a slide key. */
  const imageUrls = (key: string, tile: string) => [
    `/api/tiles/${key}.dzi`,
    `/api/tiles/${key}_files/${tile}`,
    `/api/tiles/${key}/associated/label`,
    `/api/iiif/${key}/info.json`,
    `/api/iiif/${key}/full/64,/0/default.jpg`,
  ];
  const socketGet = async (url: string, token: string) => (await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } })).status;

  it('serves the bound file by id to its hospital, and by id to another hospital’s user as missing', async () => {
    for (const { file, tile } of FILES) {
      const id = ids.get(file)!;
      for (const url of imageUrls(String(id), tile)) {
        expect((await call(app, 'GET', url, { token: admin })).statusCode, url).toBe(200);
        const refused = await call(app, 'GET', url, { token: outsider, lang: 'en-US' });
        expect(refused.statusCode, url).toBe(404);
        expect(refused.json().message).toBe(translate('en-US', 'slide.not_found'));
      }
      expect((await call(app, 'GET', `/api/data/kfb/thumb/${id}`, { token: admin })).statusCode).toBe(200);
      expect((await call(app, 'GET', `/api/data/kfb/thumb/${id}`, { token: outsider })).statusCode).toBe(404);
    }
  });

  it('serves nothing by file name, to another hospital’s user or to the administrator, on every image route', async () => {
    for (const { file, name, tile } of FILES) {
      for (const key of [name, file]) {
        for (const url of imageUrls(key, tile)) {
          for (const [token, who] of [[outsider, 'outsider'], [admin, 'admin']] as const) {
            const res = await call(app, 'GET', url, { token, lang: 'zh-CN' });
            expect(res.statusCode, `${who} ${url}`).toBe(404);
            expect(res.json().message, `${who} ${url}`).toBe(translate('zh-CN', 'slide.not_found'));
          }
        }
      }
    }
  });

  it('the tile fast lane serves the cached tile by id to its hospital only, and never by name', async () => {
    for (const { file, name, tile } of FILES) {
      const byId = `/api/tiles/${ids.get(file)}_files/${tile}`;
      // The owner's requests fill the caches the lane answers from.
      expect(await socketGet(byId, admin)).toBe(200);
      expect(await socketGet(byId, admin)).toBe(200);
      expect(await socketGet(byId, outsider)).toBe(404);
      for (const key of [name, file]) {
        const byName = `/api/tiles/${key}_files/${tile}`;
        expect(await socketGet(byName, outsider), byName).toBe(404);
        expect(await socketGet(byName, admin), byName).toBe(404);
      }
    }
  });
});
