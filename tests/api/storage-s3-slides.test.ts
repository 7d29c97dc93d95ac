import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../server/i18n/translate.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { ingestNow } from '../../server/modules/slides/ingest-now.js';
import { withDefaults } from '../../server/config.js';
import { appStorage } from '../../server/storage/app-storage.js';
import { parseStorageConfig } from '../../server/storage/storage-url.js';
import { call, databases, startApp, testApp, tokenFor, type Harness } from './harness.js';
import { startLoopbackS3, type LoopbackS3 } from '../support/s3-server.js';
import { filesUnder, md5, sendChunk, type TestFile } from './upload-helpers.js';
import { UPLOAD_CHUNK_BYTES } from '../../src/core/constants.js';

/**
 * One generated demo slide, bound by path on both backends: the data directory and S3 (s3rver on loopback). Its
 * ingest reads it from storage, its thumbnail is written back there, and its tiles are ranged GETs through the block
 * cache; every answer through the HTTP API has the bytes the local backend answers.
 */
const W = 6000;
const H = 4000;

let dir: string;
let s3: LoopbackS3;
let file: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-storage-api-'));
  fs.mkdirSync(path.join(dir, 'local', 'slides'), { recursive: true });
  file = path.join(dir, 'local', 'slides', 'demo-s3.tiff');
  await generateDemoSlide({ out: file, width: W, height: H, tileSize: 256, mpp: 0.25, seed: 11, slideId: 'DEMO-S3' });
  s3 = await startLoopbackS3();
});
afterAll(async () => {
  await s3.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(databases)('slides on S3 storage [%s]', (kind) => {
  let h: Harness;
  let local: FastifyInstance;
  let remote: FastifyInstance;
  let tokens: { local: string; remote: string };
  let ids: { local: number; remote: number };
  const s3DataDir = () => path.join(dir, 's3-node');
  const storageConfig = () => parseStorageConfig(s3.env);
  /** The S3 node's storage and block cache, as its app opened them (one per process and setting). */
  const s3Node = () => appStorage(withDefaults({ dataDir: s3DataDir(), storage: storageConfig() }));

  beforeAll(async () => {
    h = await startApp(kind);
    // Jobs run here, one at a time (ingestNow): a runner of either app would take the other's ingest too.
    local = await testApp(h.db, { dataDir: path.join(dir, 'local') }, { ingest: false });
    remote = await testApp(h.db, { dataDir: s3DataDir(), storage: storageConfig() }, { ingest: false });
    await Promise.all([local.ready(), remote.ready()]);
    tokens = { local: await tokenFor(local, 'admin'), remote: await tokenFor(remote, 'admin') };
    // The object is put where an operator's bucket sync would: under the prefix, at the key bind names.
    const { storage } = s3Node();
    await storage.write('slides/demo-s3.tiff', fs.readFileSync(file));
    const bind = async (app: FastifyInstance, token: string) => {
      const res = await call(app, 'POST', '/api/data/kfb/bind', { token, payload: { path: 'slides/demo-s3.tiff' } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.id as number;
    };
    ids = { local: await bind(local, tokens.local), remote: 0 };
    await ingestNow(h.db, path.join(dir, 'local'), ids.local);
    // The same path is one row only; the S3 node's slide is a second file in the same bucket layout.
    await storage.move('slides/demo-s3.tiff', 'slides/demo-s3-b.tiff');
    const res = await call(remote, 'POST', '/api/data/kfb/bind', { token: tokens.remote, payload: { path: 'slides/demo-s3-b.tiff' } });
    expect(res.statusCode, res.body).toBe(200);
    ids.remote = res.json().data.id;
    const job = await ingestNow(h.db, s3DataDir(), ids.remote, { storage });
    expect(job.status, job.error ?? '').toBe('done');
  });
  afterAll(async () => {
    await local.close();
    await remote.close();
    await h.close();
  });

  it('ingests the slide from S3 with the facts the local backend reads', async () => {
    const row = async (app: FastifyInstance, token: string, id: number) => (await call(app, 'GET', `/api/data/kfb/item/${id}`, { token })).json().data;
    const [a, b] = [await row(local, tokens.local, ids.local), await row(remote, tokens.remote, ids.remote)];
    expect(b).toMatchObject({ status: 'ready', width: W, height: H, md5: a.md5, levels: a.levels, file_size: a.file_size, file_path: 'slides/demo-s3-b.tiff' });
    // Nothing of it was left on this node's disk: the thumbnail is in the bucket.
    expect(fs.existsSync(path.join(s3DataDir(), 'slides'))).toBe(false);
    const { storage } = s3Node();
    expect(await storage.stat(`slides/thumbs/${ids.remote}.jpg`)).not.toBeNull();
  });

  it('serves tiles, descriptor and thumbnail with the bytes of the local backend', async () => {
    const urls = (id: number) => [`/api/tiles/${id}.dzi`, `/api/tiles/${id}_files/12/5_3.jpeg`, `/api/tiles/${id}_files/8/0_0.jpeg`, `/api/tiles/${id}_files/11/2_1.jpeg`, `/api/data/kfb/thumb/${id}`];
    const [a, b] = [urls(ids.local), urls(ids.remote)];
    for (let i = 0; i < a.length; i++) {
      const [x, y] = [await call(local, 'GET', a[i]!, { token: tokens.local }), await call(remote, 'GET', b[i]!, { token: tokens.remote })];
      expect([x.statusCode, y.statusCode], b[i]).toEqual([200, 200]);
      expect(y.rawPayload.equals(x.rawPayload), b[i]).toBe(true);
    }
  });

  it('downloads the original from S3, whole and by range, and exports it as DICOM streamed from the bucket', async () => {
    const link = await call(remote, 'POST', `/api/data/kfb/download/${ids.remote}`, { token: tokens.remote });
    expect(link.statusCode, link.body).toBe(200);
    const url = link.json().data.url as string;
    const whole = await call(remote, 'GET', url);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(fs.readFileSync(file))).toBe(true);
    const part = await call(remote, 'GET', url, { headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${fs.statSync(file).size}`);
    expect(part.rawPayload.equals(fs.readFileSync(file).subarray(100, 200))).toBe(true);

    const [x, y] = [
      await call(local, 'GET', `/api/data/kfb/${ids.local}/dicom`, { token: tokens.local }),
      await call(remote, 'GET', `/api/data/kfb/${ids.remote}/dicom`, { token: tokens.remote }),
    ];
    expect([x.statusCode, y.statusCode]).toEqual([200, 200]);
    expect(y.rawPayload.subarray(0, 2).toString()).toBe('PK');
    // Every level of the pyramid, as locally; the label and macro are TIFF pages libvips would need a local file for.
    const names = (zip: Buffer) => [...zip.toString('latin1').matchAll(/[\w-]+\/([\w-]+)\.dcm/g)].map((m) => m[1]);
    const levels = (zip: Buffer) => [...new Set(names(zip).filter((n) => n!.startsWith('level-')))].sort();
    expect(levels(y.rawPayload)).toEqual(levels(x.rawPayload));
    expect(levels(y.rawPayload).length).toBeGreaterThan(3);
  });

  it('assembles a chunked upload on S3 by multipart upload, binds it, serves its tiles and deletes it', async () => {
    const data = fs.readFileSync(file);
    const upload: TestFile = { name: 'uploaded.tiff', data, totalNum: Math.ceil(data.length / UPLOAD_CHUNK_BYTES), totalMd5: md5(data) };
    expect(upload.totalNum).toBeGreaterThan(1);
    let answer: Record<string, unknown> = {};
    for (let num = 1; num <= upload.totalNum; num++) {
      const res = await sendChunk(remote, upload, num, { token: tokens.remote });
      expect(res.statusCode, res.body).toBe(200);
      answer = res.json().data;
    }
    expect(answer).toMatchObject({ code: 1 });
    const stored = String(answer.path);
    const { storage } = s3Node();
    // In the bucket with the client's MD5; nothing of the file left on this node's disk but empty folders.
    const parts: Buffer[] = [];
    for await (const part of await storage.readStream(stored)) parts.push(part as Buffer);
    const bytes = Buffer.concat(parts);
    expect(md5(bytes)).toBe(upload.totalMd5);
    expect(await filesUnder(path.join(s3DataDir(), 'uploads'))).toEqual([]);

    const bound = await call(remote, 'POST', '/api/data/kfb/bind', { token: tokens.remote, payload: { path: stored } });
    expect(bound.statusCode, bound.body).toBe(200);
    const row = bound.json().data;
    expect(row.file_path).toMatch(/^slides\/\d{4}\/\d{2}\/uploaded\.tiff$/);
    expect(await storage.stat(stored)).toBeNull();
    expect((await ingestNow(h.db, s3DataDir(), row.id, { storage })).status).toBe('done');
    const tile = (app: FastifyInstance, token: string, id: number) => call(app, 'GET', `/api/tiles/${id}_files/12/4_2.jpeg`, { token });
    const [x, y] = [await tile(local, tokens.local, ids.local), await tile(remote, tokens.remote, row.id)];
    expect([x.statusCode, y.statusCode]).toEqual([200, 200]);
    expect(y.rawPayload.equals(x.rawPayload)).toBe(true);

    // Deleted, it takes its object and its thumbnail out of the bucket.
    expect(await storage.stat(`slides/thumbs/${row.id}.jpg`)).not.toBeNull();
    expect((await call(remote, 'DELETE', '/api/data/kfb/destroy', { token: tokens.remote, payload: { ids: [row.id] } })).statusCode).toBe(200);
    expect(await storage.stat(row.file_path)).toBeNull();
    expect(await storage.stat(`slides/thumbs/${row.id}.jpg`)).toBeNull();
  });

  it('answers a slide whose object is gone with the translated not-found', async () => {
    const { storage, cache } = s3Node();
    // The tiles above came through the block cache: ranged GETs, not a copy of the file.
    expect(cache!.memoryBytes).toBeGreaterThan(0);
    expect(cache!.counts.fetches).toBeGreaterThan(0);
    await storage.move('slides/demo-s3-b.tiff', 'slides/elsewhere.tiff');
    try {
      // The slide store trusts a file unchanged for a few seconds; a new app has nothing cached.
      const fresh = await testApp(h.db, { dataDir: s3DataDir(), storage: storageConfig() }, { ingest: false });
      try {
        const res = await call(fresh, 'GET', `/api/tiles/${ids.remote}.dzi`, { token: tokens.remote, headers: { 'accept-language': 'en-US' } });
        expect(res.statusCode).toBe(404);
        expect(res.json().message).toBe(translate('en-US', 'slide.not_found'));
      } finally {
        await fresh.close();
      }
    } finally {
      await storage.move('slides/elsewhere.tiff', 'slides/demo-s3-b.tiff');
    }
  });
});
