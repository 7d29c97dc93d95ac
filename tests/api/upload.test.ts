import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACHMENT_MAX_BYTES, UPLOAD_CHUNK_BYTES as CHUNK } from '../../src/core/constants.js';
import { buildApp, type AppOptions } from '../../server/app.js';
import type { Db } from '../../server/db/connect.js';
import type { MessageKey } from '../../server/i18n/messages.js';
import { translate, type Language, type Params } from '../../server/i18n/translate.js';
import { uploadId } from '../../server/modules/upload/protocol.js';
import { databases, startApp, tokenFor, type Harness } from './harness.js';

const t = (key: MessageKey, params?: Params, lang: Language = 'zh-CN') => translate(lang, key, params);
const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

/** Reproducible bytes (mulberry32), so a failure can be replayed exactly. */
function seededBytes(seed: number, size: number): Buffer {
  const out = Buffer.allocUnsafe(size);
  let a = seed >>> 0;
  for (let i = 0; i < size; i += 4) {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    const word = (x ^ (x >>> 14)) >>> 0;
    for (let b = 0; b < 4 && i + b < size; b++) out[i + b] = (word >>> (8 * b)) & 0xff;
  }
  return out;
}

interface TestFile {
  name: string;
  data: Buffer;
  totalNum: number;
  totalMd5: string;
}

function testFile(name: string, seed: number, size: number): TestFile {
  const data = seededBytes(seed, size);
  return { name, data, totalNum: Math.max(1, Math.ceil(size / CHUNK)), totalMd5: md5(data) };
}

const chunkOf = (file: TestFile, num: number) => file.data.subarray((num - 1) * CHUNK, num * CHUNK);

/** A multipart body built by hand, so the tests decide the order of the parts. */
function multipart(fields: Record<string, string | number>, file?: { field: string; bytes: Buffer; filename?: string }, fileFirst = false) {
  const boundary = `----dsmstest${Math.random().toString(16).slice(2)}`;
  const fieldParts = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  const fileParts = file
    ? [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename ?? 'blob'}"\r\nContent-Type: application/octet-stream\r\n\r\n`), file.bytes, Buffer.from('\r\n')]
    : [];
  const parts = fileFirst ? [...fileParts, ...fieldParts] : [...fieldParts, ...fileParts];
  return { payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

interface ChunkOptions {
  token?: string;
  lang?: Language;
  /** Overrides or extra fields. */
  fields?: Record<string, string | number>;
  bytes?: Buffer;
  blobFirst?: boolean;
}

function sendChunk(app: FastifyInstance, file: TestFile, num: number, opts: ChunkOptions = {}) {
  const bytes = opts.bytes ?? chunkOf(file, num);
  const fields = { file_name: file.name, num, total_num: file.totalNum, md5: md5(bytes), total_md5: file.totalMd5, ...opts.fields };
  const body = multipart(fields, { field: 'blob', bytes }, opts.blobFirst);
  const headers: Record<string, string> = { 'content-type': body.contentType };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.lang) headers['user-language'] = opts.lang;
  return app.inject({ method: 'POST', url: '/api/upload/large', headers, payload: body.payload });
}

/** Every file under `dir`, relative, sorted: what an upload left on disk. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

describe.each(databases)('upload [%s]', (kind) => {
  let h: Harness;
  let technician: string;
  const dirs: string[] = [];
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    h = await startApp(kind);
    technician = await tokenFor(h.app, 'technician');
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await h.close();
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  });

  /** An app on the suite's database with its own data dir, as main.ts would build it. */
  async function appOn(dataDir: string, extra: Partial<AppOptions['config']> = {}): Promise<FastifyInstance> {
    const app = await buildApp({ db: h.db as Db, config: { tokenTtlSeconds: 3600, distDir: '/nonexistent', logLevel: 'warn', dataDir, ...extra }, logger: false });
    await app.ready();
    apps.push(app);
    return app;
  }

  async function freshApp(extra: Partial<AppOptions['config']> = {}) {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dsms-upload-test-'));
    dirs.push(dataDir);
    return { app: await appOn(dataDir, extra), dataDir };
  }

  const idOf = (file: TestFile) => uploadId({ fileName: file.name, num: 1, totalNum: file.totalNum, md5: '', totalMd5: file.totalMd5 });

  describe('resumable chunks', () => {
    it('resumes an upload interrupted halfway after a restart, from lack, and assembles the original bytes', async () => {
      const file = testFile('slide-001.kfb', 1, 3 * CHUNK + 777);
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dsms-upload-test-'));
      dirs.push(dataDir);

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
      expect((await fs.readdir(path.join(dataDir, 'uploads', 'parts', idOf(file)))).sort()).toEqual(['1', 'data']);
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

  // Two apps on one data dir stand for two processes (cluster workers, API nodes): each has its own lock,
  // assembler and caches, and shares only the disk, as processes do.
  describe('chunks of one file on several processes', () => {
    async function twoApps() {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dsms-upload-test-'));
      dirs.push(dataDir);
      return { a: await appOn(dataDir), b: await appOn(dataDir), dataDir };
    }

    it('answers lack from the disk, so a chunk kept by the other process is not asked for again', async () => {
      const { a, b } = await twoApps();
      const file = testFile('shared-lack.kfb', 20, 3 * CHUNK + 5);
      expect((await sendChunk(a, file, 1, { token: technician })).json().data).toEqual({ code: 0, msg: 0.25, lack: [2, 3, 4] });
      expect((await sendChunk(b, file, 3, { token: technician })).json().data).toEqual({ code: 0, msg: 0.5, lack: [2, 4] });
      expect((await sendChunk(a, file, 4, { token: technician })).json().data).toEqual({ code: 0, msg: 0.75, lack: [2] });
      // The process that never saw chunks 1, 3 and 4 finishes the file from the disk.
      const done = await sendChunk(b, file, 2, { token: technician });
      expect(done.json().data).toEqual({ code: 1, path: `uploads/complete/${idOf(file)}/shared-lack.kfb` });
    });

    it('assembles the original bytes once when chunks land on both at the same time, duplicates and both last ones included', async () => {
      const { a, b, dataDir } = await twoApps();
      const file = testFile('shared-burst.kfb', 21, 7 * CHUNK + 321);
      // Every chunk to one of them, chunks 3 and 8 to both, all at once.
      const sends = [1, 2, 3, 4, 5, 6, 7, 8].flatMap((n) => (n === 3 || n === 8 ? [a, b] : [n % 2 ? a : b]).map((app) => sendChunk(app, file, n, { token: technician })));
      const answers = (await Promise.all(sends)).map((r) => {
        expect(r.statusCode, r.body).toBe(200);
        return r.json().data as { code: number; path?: string };
      });
      const finished = answers.filter((x) => x.code === 1);
      expect(finished.length).toBeGreaterThanOrEqual(1);
      expect(new Set(finished.map((x) => x.path))).toEqual(new Set([`uploads/complete/${idOf(file)}/shared-burst.kfb`]));
      expect((await fs.readFile(path.join(dataDir, finished[0]!.path!))).equals(file.data)).toBe(true);
      expect(await filesUnder(path.join(dataDir, 'uploads'))).toEqual([`complete/${idOf(file)}/shared-burst.kfb`]);
      // Both answer a retry the same, whichever of them finished.
      for (const app of [a, b]) expect((await sendChunk(app, file, 8, { token: technician })).json().data).toEqual(finished[0]);
    });

    it('waits for the other process finishing the file and answers its outcome', async () => {
      const { a, b, dataDir } = await twoApps();
      const file = testFile('shared-last.kfb', 22, 4 * CHUNK + 9);
      for (const num of [1, 2, 3, 4]) await sendChunk(num % 2 ? a : b, file, num, { token: technician });
      // The same last chunk reaches both at once: one finishes, the other sees its claim and waits.
      const [fromA, fromB] = await Promise.all([a, b].map((app) => sendChunk(app, file, 5, { token: technician })));
      const expected = { code: 1, path: `uploads/complete/${idOf(file)}/shared-last.kfb` };
      expect([fromA.statusCode, fromB.statusCode]).toEqual([200, 200]);
      expect([fromA.json().data, fromB.json().data]).toEqual([expected, expected]);
      expect(md5(await fs.readFile(path.join(dataDir, expected.path)))).toBe(file.totalMd5);
    });

    it('takes over the claim of a process that died while finishing', async () => {
      const { a, dataDir } = await twoApps();
      const file = testFile('shared-dead.kfb', 23, CHUNK + 1);
      await sendChunk(a, file, 1, { token: technician });
      const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!;
      const claim = path.join(dataDir, 'uploads', 'parts', idOf(file), 'finishing');
      await fs.writeFile(claim, JSON.stringify({ host: os.hostname(), pid: dead, nonce: 'gone', at: Date.now() }));
      const done = await sendChunk(a, file, 2, { token: technician });
      expect(done.json().data).toEqual({ code: 1, path: `uploads/complete/${idOf(file)}/shared-dead.kfb` });
      expect((await fs.readFile(path.join(dataDir, done.json().data.path))).equals(file.data)).toBe(true);
    });
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
