import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_BYTES as CHUNK } from '../../src/core/constants.js';
import { call, tokenFor, databases, type Harness } from './harness.js';
import { filesUnder, multipart, seededBytes, sendChunk, t, testFile, uploadSuite } from './upload-helpers.js';

/** Issue 8 items 11 and 15: a finished upload is its uploader's; attachments need a permission and stay within a quota. */
describe.each(databases)('upload ownership and attachment limits [%s]', (kind) => {
  const suite = uploadSuite(kind);
  let h: Harness;
  let technician: string;
  let scanner: string;
  beforeAll(async () => {
    ({ h, technician } = suite);
    scanner = await tokenFor(h.app, 'scanner');
  });

  const attach = (app: FastifyInstance, token: string, bytes: Buffer, filename = 'scan.png') => {
    const body = multipart({}, { field: 'file', bytes, filename });
    return app.inject({
      method: 'POST', url: '/api/upload/image', payload: body.payload,
      headers: { authorization: `Bearer ${token}`, 'content-type': body.contentType, 'user-language': 'en-US' },
    });
  };

  describe('finished uploads', () => {
    it("another user sending the same file starts an upload of their own: no code 1, no path of the first one's", async () => {
      const { app, dataDir } = await suite.freshApp();
      const file = testFile('same-name.kfb', 31, CHUNK + 1000);
      await sendChunk(app, file, 1, { token: technician });
      const first = (await sendChunk(app, file, 2, { token: technician })).json().data;
      expect(first.code).toBe(1);

      const other = await sendChunk(app, file, 1, { token: scanner });
      expect(other.statusCode).toBe(200);
      expect(other.json().data).toEqual({ code: 0, msg: 0.5, lack: [2] });
      expect(other.body).not.toContain(first.path);
      const second = (await sendChunk(app, file, 2, { token: scanner })).json().data;
      expect(second.code).toBe(1);
      expect(second.path).not.toBe(first.path);
      // Two uploads, two files, each where its own answer said.
      for (const p of [first.path, second.path]) expect((await fs.readFile(path.join(dataDir, p))).equals(file.data)).toBe(true);
    });

    it("refuses to bind another user's finished upload with a translated 403, and leaves it for its owner", async () => {
      const { app, dataDir } = await suite.freshApp();
      const file = testFile('mine.kfb', 32, 5000);
      const done = (await sendChunk(app, file, 1, { token: technician })).json().data;
      expect(done.code).toBe(1);
      // The scanner operator may upload and bind slides, but not someone else's upload.
      const refused = await call(app, 'POST', '/api/data/kfb/bind', { token: scanner, lang: 'en-US', payload: { path: done.path } });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: t('upload.not_yours', { path: done.path }, 'en-US') });
      expect(await h.db.selectFrom('slides').select('id').where('name', '=', 'mine').executeTakeFirst()).toBeUndefined();
      expect((await fs.readFile(path.join(dataDir, done.path))).equals(file.data)).toBe(true);

      const own = await call(app, 'POST', '/api/data/kfb/bind', { token: technician, payload: { path: done.path } });
      expect(own.statusCode, own.body).toBe(200);
    });

    it('a file an operator put under slides/ has no uploader: only upload_bind_any places it in a hospital', async () => {
      const { app, dataDir } = await suite.freshApp();
      const file = testFile('placed.kfb', 35, 5000);
      await fs.mkdir(path.join(dataDir, 'slides', 'import'), { recursive: true });
      await fs.writeFile(path.join(dataDir, 'slides', 'import', file.name), file.data);
      const stored = `slides/import/${file.name}`;
      const refused = await call(app, 'POST', '/api/data/kfb/bind', { token: scanner, lang: 'en-US', payload: { path: stored } });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: t('upload.not_yours', { path: stored }, 'en-US') });
      expect(await h.db.selectFrom('slides').select('id').where('name', '=', 'placed').executeTakeFirst()).toBeUndefined();
      const bound = await call(app, 'POST', '/api/data/kfb/bind', { token: technician, payload: { path: stored } });
      expect(bound.statusCode, bound.body).toBe(200);
    });
  });

  describe('attachments', () => {
    it('need the attachment_upload permission, and a refused one keeps nothing', async () => {
      const { app, dataDir } = await suite.freshApp();
      for (const user of ['allocator', 'clinician']) {
        const res = await attach(app, await tokenFor(h.app, user), seededBytes(33, 1000));
        expect(res.statusCode, user).toBe(403);
        expect(res.json()).toEqual({ message: t('error.forbidden', { permission: 'attachment_upload' }, 'en-US') });
      }
      expect(await filesUnder(path.join(dataDir, 'uploads'))).toEqual([]);
      expect((await attach(app, await tokenFor(h.app, 'primary'), seededBytes(34, 1000))).statusCode).toBe(200);
    });

    it("refuses what would pass the user's quota, in parallel too, with a translated 413 and nothing stored", async () => {
      const { app, dataDir } = await suite.freshApp({ attachmentQuotaMb: 1 });
      const registrar = await tokenFor(h.app, 'registrar');
      const first = await attach(app, registrar, seededBytes(35, 700 * 1024));
      expect(first.statusCode).toBe(200);
      const over = await attach(app, registrar, seededBytes(36, 400 * 1024));
      expect(over.statusCode).toBe(413);
      expect(over.json()).toEqual({ message: t('upload.attachment_quota', { quota: '1M', used: '700K' }, 'en-US') });
      expect(await filesUnder(path.join(dataDir, 'uploads'))).toEqual([first.json().data.path.replace(/^uploads\//, '')]);

      // Another user's quota is their own: three parallel 400K files, 1M allowed, exactly two kept.
      const sampler = await tokenFor(h.app, 'sampler');
      const parallel = await Promise.all([37, 38, 39].map((seed) => attach(app, sampler, seededBytes(seed, 400 * 1024))));
      expect(parallel.map((r) => r.statusCode).sort()).toEqual([200, 200, 413]);
      expect(await filesUnder(path.join(dataDir, 'uploads'))).toHaveLength(3);
    });
  });
});
