import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_BYTES as CHUNK } from '../../src/core/constants.js';
import type { MessageKey } from '../../server/i18n/messages.js';
import type { Params } from '../../server/i18n/translate.js';
import { databases } from './harness.js';
import { chunkOf, filesUnder, idOf, md5, multipart, sendChunk, t, testFile, uploadSuite, type TestFile } from './upload-helpers.js';

/** Spec §4, §7, §9 chunked upload: resume from lack, MD5 checks per chunk and per file, limits, concurrency. */
describe.each(databases)('upload [%s]', (kind) => {
  const suite = uploadSuite(kind);
  const { appOn, freshApp, tempDir } = suite;
  let technician: string;
  beforeAll(() => {
    ({ technician } = suite);
  });

  describe('resumable chunks', () => {
    it('resumes an upload interrupted halfway after a restart, from lack, and assembles the original bytes', async () => {
      const file = testFile('slide-001.kfb', 1, 3 * CHUNK + 777);
      const dataDir = await tempDir();

      const before = await appOn(dataDir);
      for (const [num, lack, msg] of [[1, [2, 3, 4], 0.25], [3, [2, 4], 0.5]] as const) {
        const res = await sendChunk(before, file, num, { token: technician });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ code: 0, message: 'ok', data: { code: 0, msg, lack } });
      }
      await before.close();

      const after = await appOn(dataDir);
      // Re-sending any chunk tells the client what is missing; the first is what a browser sends on resume.
      const resumed = await sendChunk(after, file, 1, { token: technician });
      expect(resumed.json().data).toEqual({ code: 0, msg: 0.5, lack: [2, 4] });
      expect((await sendChunk(after, file, 2, { token: technician })).json().data).toEqual({ code: 0, msg: 0.75, lack: [4] });
      // The last one with its blob before its fields, and a field the protocol does not know.
      const done = await sendChunk(after, file, 4, { token: technician, blobFirst: true, fields: { batch: 'B-7' } });
      expect(done.json()).toEqual({ code: 0, message: 'ok', data: { code: 1, path: `uploads/complete/${idOf(file)}/slide-001.kfb` } });

      const stored = await fs.readFile(path.join(dataDir, done.json().data.path));
      expect(stored.length).toBe(file.data.length);
      expect(md5(stored)).toBe(file.totalMd5);
      expect(await filesUnder(path.join(dataDir, 'uploads'))).toEqual([`complete/${idOf(file)}/slide-001.kfb`]);
    });

    it('refuses a chunk whose MD5 does not match, in zh-CN and en-US, and reports it in lack afterwards', async () => {
      const { app, dataDir } = await freshApp();
      const file = testFile('md5.kfb', 2, 2 * CHUNK + 10);
      const wrong = md5(chunkOf(file, 1));
      for (const lang of ['zh-CN', 'en-US'] as const) {
        const res = await sendChunk(app, file, 2, { token: technician, lang, fields: { md5: wrong } });
        expect(res.statusCode).toBe(422);
        expect(res.json()).toEqual({ message: t('upload.chunk_md5_mismatch', { num: 2 }, lang) });
      }
      expect(t('upload.chunk_md5_mismatch', { num: 2 }, 'zh-CN')).not.toBe(t('upload.chunk_md5_mismatch', { num: 2 }, 'en-US'));
      const next = await sendChunk(app, file, 1, { token: technician });
      expect(next.json().data).toEqual({ code: 0, msg: 0.3333, lack: [2, 3] });
      // Chunk 1 is marked present; the refused chunk 2 left no marker (and no bytes: only verified bytes are written).
      // `hashing` says which process follows the file to hash it (assembler.ts).
      expect((await fs.readdir(path.join(dataDir, 'uploads', 'parts', idOf(file)))).sort()).toEqual(['1', 'data', 'hashing']);
      expect((await fs.stat(path.join(dataDir, 'uploads', 'parts', idOf(file), 'data'))).size).toBe(CHUNK);
      // Bytes damaged in transit: the declared md5 is right, the bytes are not.
      const damaged = Buffer.from(chunkOf(file, 3));
      damaged[5] ^= 0xff;
      const res = await sendChunk(app, file, 3, { token: technician, bytes: damaged, fields: { md5: md5(chunkOf(file, 3)) } });
      expect(res.statusCode).toBe(422);
      expect((await sendChunk(app, file, 1, { token: technician })).json().data.lack).toEqual([2, 3]);
    });

    it('rejects a file whose total_md5 does not match and leaves nothing behind', async () => {
      const { app, dataDir } = await freshApp();
      const file = { ...testFile('total.kfb', 3, 2 * CHUNK + 5), totalMd5: md5(Buffer.from('another file')) };
      expect((await sendChunk(app, file, 1, { token: technician })).json().data.lack).toEqual([2, 3]);
      expect((await sendChunk(app, file, 3, { token: technician })).json().data.lack).toEqual([2]);
      for (const lang of ['zh-CN', 'en-US'] as const) {
        const res = await sendChunk(app, file, 2, { token: technician, lang });
        expect(res.statusCode).toBe(422);
        expect(res.json()).toEqual({ message: t('upload.file_md5_mismatch', { file: 'total.kfb' }, lang) });
        expect(await filesUnder(path.join(dataDir, 'uploads'))).toEqual([]);
        // The second round starts over from nothing and fails the same way.
        if (lang === 'zh-CN') for (const num of [1, 3]) await sendChunk(app, file, num, { token: technician });
      }
    });

    it('answers the same path when a finished upload is sent again, and keeps nothing more', async () => {
      const { app, dataDir } = await freshApp();
      const file = testFile('again.kfb', 4, CHUNK + 3);
      await sendChunk(app, file, 1, { token: technician });
      const done = (await sendChunk(app, file, 2, { token: technician })).json().data;
      expect(done.code).toBe(1);
      for (const num of [2, 1]) expect((await sendChunk(app, file, num, { token: technician })).json().data).toEqual(done);
      expect(await filesUnder(path.join(dataDir, 'uploads'))).toEqual([`complete/${idOf(file)}/again.kfb`]);
    });

    it('takes an empty file as one empty chunk', async () => {
      const { app, dataDir } = await freshApp();
      const file = testFile('empty.kfb', 13, 0);
      const res = await sendChunk(app, file, 1, { token: technician });
      expect(res.json().data).toEqual({ code: 1, path: `uploads/complete/${idOf(file)}/empty.kfb` });
      expect((await fs.stat(path.join(dataDir, res.json().data.path))).size).toBe(0);
    });

    it('ends the file where the last accepted last chunk ends, when it was sent again shorter', async () => {
      const { app, dataDir } = await freshApp();
      const full = testFile('tail.kfb', 14, CHUNK + 1000);
      const file = { ...full, data: full.data.subarray(0, CHUNK + 500), totalMd5: md5(full.data.subarray(0, CHUNK + 500)) };
      expect((await sendChunk(app, file, 2, { token: technician, bytes: chunkOf(full, 2) })).json().data.lack).toEqual([1]);
      expect((await sendChunk(app, file, 2, { token: technician })).json().data.lack).toEqual([1]);
      const done = (await sendChunk(app, file, 1, { token: technician })).json().data;
      expect(done.code).toBe(1);
      expect((await fs.readFile(path.join(dataDir, done.path))).equals(file.data)).toBe(true);
    });

    it('assembles once when every chunk of a file arrives at the same time, duplicates included', async () => {
      const { app, dataDir } = await freshApp();
      const file = testFile('burst.kfb', 5, 3 * CHUNK + 1);
      const nums = [1, 2, 3, 4, 4, 2, 1, 3, 4];
      const answers = (await Promise.all(nums.map((n) => sendChunk(app, file, n, { token: technician })))).map((r) => {
        expect(r.statusCode).toBe(200);
        return r.json().data;
      });
      const finished = answers.filter((a) => a.code === 1);
      expect(finished.length).toBeGreaterThanOrEqual(1);
      expect(new Set(finished.map((a) => a.path))).toEqual(new Set([`uploads/complete/${idOf(file)}/burst.kfb`]));
      expect(md5(await fs.readFile(path.join(dataDir, finished[0].path)))).toBe(file.totalMd5);
      expect(await filesUnder(path.join(dataDir, 'uploads'))).toEqual([`complete/${idOf(file)}/burst.kfb`]);
    });

    it('lands 8 uploads sent in parallel over real HTTP with the right bytes', async () => {
      const { app, dataDir } = await freshApp();
      await app.listen({ host: '127.0.0.1', port: 0 });
      const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
      const files = Array.from({ length: 8 }, (_, i) => testFile(`parallel-${i}.kfb`, 100 + i, 2 * CHUNK + 1000 * (i + 1)));

      const send = async (file: TestFile, num: number) => {
        const form = new FormData();
        const bytes = chunkOf(file, num);
        for (const [k, v] of Object.entries({ file_name: file.name, num, total_num: file.totalNum, md5: md5(bytes), total_md5: file.totalMd5 })) form.append(k, String(v));
        form.append('blob', new Blob([Uint8Array.from(bytes)]), 'blob');
        const res = await fetch(`${base}/api/upload/large`, { method: 'POST', body: form, headers: { authorization: `Bearer ${technician}` } });
        expect(res.status).toBe(200);
        return (await res.json()).data as { code: number; path?: string };
      };
      // Each file's chunks in a different order, all files at once.
      const results = await Promise.all(files.map(async (file, i) => {
        const order = i % 2 ? [3, 1, 2] : [1, 2, 3];
        let last: { code: number; path?: string } = { code: 0 };
        for (const num of order) last = await send(file, num);
        return last;
      }));

      for (const [i, file] of files.entries()) {
        expect(results[i]).toEqual({ code: 1, path: `uploads/complete/${idOf(file)}/${file.name}` });
        const stored = await fs.readFile(path.join(dataDir, results[i]!.path!));
        expect(stored.equals(file.data)).toBe(true);
      }
      expect((await filesUnder(path.join(dataDir, 'uploads'))).length).toBe(8);
    });

    it('refuses invalid fields with a translated message per field and stores nothing', async () => {
      const { app, dataDir } = await freshApp();
      const file = testFile('fields.kfb', 6, 100);
      const empty = multipart({ extra: 'x' });
      const res = await app.inject({ method: 'POST', url: '/api/upload/large', headers: { authorization: `Bearer ${technician}`, 'content-type': empty.contentType, 'user-language': 'en-US' }, payload: empty.payload });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        message: t('error.validation', {}, 'en-US'),
        errors: Object.fromEntries(['file_name', 'num', 'total_num', 'md5', 'total_md5'].map((field) => [field, [t('error.field_required', { field }, 'en-US')]])),
      });

      const cases: [Record<string, string | number>, string, MessageKey, Params?][] = [
        [{ num: 2 }, 'num', 'upload.num_invalid'],
        [{ num: 'one' }, 'num', 'upload.num_invalid'],
        [{ total_num: 0 }, 'total_num', 'upload.total_num_invalid', { max: 1_000_000 }],
        [{ md5: 'not-a-hash' }, 'md5', 'upload.md5_invalid', { field: 'md5' }],
        [{ total_md5: 'abc' }, 'total_md5', 'upload.md5_invalid', { field: 'total_md5' }],
        [{ file_name: '../../etc/passwd' }, 'file_name', 'upload.file_name_invalid'],
        [{ file_name: '..' }, 'file_name', 'upload.file_name_invalid'],
        [{ total_size: 5 * CHUNK }, 'total_size', 'upload.total_size_invalid'],
      ];
      for (const [fields, field, key, params] of cases) {
        const bad = await sendChunk(app, file, 1, { token: technician, fields });
        expect(bad.statusCode, JSON.stringify(fields)).toBe(422);
        expect(bad.json().errors).toEqual({ [field]: [t(key, params)] });
      }

      const noBlob = multipart({ file_name: 'x.kfb', num: 1, total_num: 1, md5: md5(Buffer.alloc(0)), total_md5: md5(Buffer.alloc(0)) });
      const missing = await app.inject({ method: 'POST', url: '/api/upload/large', headers: { authorization: `Bearer ${technician}`, 'content-type': noBlob.contentType }, payload: noBlob.payload });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().errors).toEqual({ blob: [t('upload.blob_missing')] });

      const json = await app.inject({ method: 'POST', url: '/api/upload/large', headers: { authorization: `Bearer ${technician}` }, payload: { file_name: 'x' } });
      expect(json.statusCode).toBe(400);
      expect(json.json()).toEqual({ message: t('upload.not_multipart') });
      expect(await filesUnder(path.join(dataDir, 'uploads'))).toEqual([]);
    });

    it('refuses chunks of the wrong size: short ones with 422, long ones with 413', async () => {
      const { app, dataDir } = await freshApp();
      const file = testFile('sizes.kfb', 7, 2 * CHUNK + 10);
      const short = await sendChunk(app, file, 1, { token: technician, bytes: chunkOf(file, 1).subarray(0, 1000) });
      expect(short.statusCode).toBe(422);
      expect(short.json()).toEqual({ message: t('upload.chunk_size_invalid', { num: 1, size: 1000, expected: String(CHUNK) }) });
      const long = await sendChunk(app, file, 1, { token: technician, bytes: Buffer.concat([chunkOf(file, 1), Buffer.alloc(1)]) });
      expect(long.statusCode).toBe(413);
      expect(long.json()).toEqual({ message: t('upload.chunk_too_large', { max: '2M' }) });
      expect(await filesUnder(path.join(dataDir, 'uploads'))).toEqual([]);
    });

    it('refuses a slide over the configured limit with 413 before keeping any of it', async () => {
      const { app, dataDir } = await freshApp({ uploadMaxBytes: 3 * 1024 * 1024 });
      const big = testFile('big.kfb', 8, 2 * CHUNK + 1);
      const res = await sendChunk(app, big, 1, { token: technician, lang: 'en-US' });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ message: t('upload.file_too_large', { max: '3M' }, 'en-US') });
      expect(await filesUnder(path.join(dataDir, 'uploads'))).toEqual([]);
      const small = testFile('small.kfb', 9, CHUNK + 5);
      await sendChunk(app, small, 1, { token: technician });
      expect((await sendChunk(app, small, 2, { token: technician })).json().data.code).toBe(1);
    });
  });
});
