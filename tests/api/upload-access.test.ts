import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { ATTACHMENT_MAX_BYTES } from '../../src/core/constants.js';
import { databases, tokenFor, type Harness } from './harness.js';
import { filesUnder, md5, multipart, seededBytes, sendChunk, t, testFile, uploadSuite } from './upload-helpers.js';

/** Who may upload, what the operation log keeps of a chunk, and attachments capped at 200M (spec §9). */
describe.each(databases)('upload access and attachments [%s]', (kind) => {
  const suite = uploadSuite(kind);
  const { freshApp } = suite;
  let h: Harness;
  let technician: string;
  beforeAll(() => {
    ({ h, technician } = suite);
  });

  describe('access', () => {
    it('needs a token, and the slide_upload permission for slides', async () => {
      const { app, dataDir } = await freshApp();
      const file = testFile('access.kfb', 10, 1000);
      const anonymous = await sendChunk(app, file, 1);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({ message: t('error.unauthenticated') });
      const image = multipart({}, { field: 'file', bytes: Buffer.from('x'), filename: 'a.png' });
      expect((await app.inject({ method: 'POST', url: '/api/upload/image', headers: { 'content-type': image.contentType }, payload: image.payload })).statusCode).toBe(401);

      const registrar = await sendChunk(app, file, 1, { token: await tokenFor(h.app, 'registrar') });
      expect(registrar.statusCode).toBe(403);
      expect(registrar.json()).toEqual({ message: t('error.forbidden', { permission: 'slide_upload' }) });
      expect(await filesUnder(path.join(dataDir, 'uploads'))).toEqual([]);

      for (const user of ['technician', 'scanner', 'admin']) {
        const res = await sendChunk(app, { ...file, name: `${user}.kfb` }, 1, { token: await tokenFor(h.app, user) });
        expect(res.statusCode, user).toBe(200);
        expect(res.json().data.code).toBe(1);
      }
    });

    it('records each chunk in the operation log with its fields, never its bytes', async () => {
      const { app } = await freshApp();
      const file = testFile('logged.kfb', 11, 500);
      await sendChunk(app, file, 1, { token: technician });
      const row = await h.db.selectFrom('operation_logs').selectAll().where('route', '=', '/api/upload/large').orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(row).toMatchObject({ username: 'technician', method: 'POST', status_code: 200 });
      expect(JSON.parse(row.payload!)).toEqual({ file_name: 'logged.kfb', num: '1', total_num: '1', md5: md5(file.data), total_md5: file.totalMd5 });
    });
  });

  describe('attachments', () => {
    it('keeps one attachment and answers its path', async () => {
      const { app, dataDir } = await freshApp();
      const bytes = seededBytes(12, 300_000);
      const body = multipart({ note: 'x' }, { field: 'file', bytes, filename: 'CT 胸部.dcm' });
      const res = await app.inject({ method: 'POST', url: '/api/upload/image', headers: { authorization: `Bearer ${await tokenFor(h.app, 'registrar')}`, 'content-type': body.contentType }, payload: body.payload });
      expect(res.statusCode).toBe(200);
      const { path: stored } = res.json().data;
      expect(stored).toMatch(/^uploads\/attachments\/[0-9a-f]{32}\/CT 胸部\.dcm$/);
      expect((await fs.readFile(path.join(dataDir, stored))).equals(bytes)).toBe(true);
      expect(await filesUnder(path.join(dataDir, 'uploads'))).toEqual([stored.replace(/^uploads\//, '')]);
    });

    it('refuses an attachment over 200M with 413 and keeps nothing, reading the body as a stream', async () => {
      const { app, dataDir } = await freshApp();
      const boundary = '----dsmsbig';
      const zeros = Buffer.alloc(1024 * 1024);
      const size = ATTACHMENT_MAX_BYTES + 1;
      async function* body() {
        yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
        for (let sent = 0; sent < size; sent += zeros.length) yield zeros.subarray(0, Math.min(zeros.length, size - sent));
        yield Buffer.from(`\r\n--${boundary}--\r\n`);
      }
      const res = await app.inject({
        method: 'POST', url: '/api/upload/image', payload: Readable.from(body()),
        headers: { authorization: `Bearer ${technician}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'user-language': 'en-US' },
      });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ message: t('upload.image_too_large', { max: '200M' }, 'en-US') });
      expect(await filesUnder(path.join(dataDir, 'uploads'))).toEqual([]);
    });

    it('takes exactly 200M as the limit (spec §9)', () => {
      expect(ATTACHMENT_MAX_BYTES).toBe(200 * 1024 * 1024);
    });
  });
});
