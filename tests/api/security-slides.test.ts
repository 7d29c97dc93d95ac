import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { call, databases, ingested, startApp, testApp, tokenFor, type Harness } from './harness.js';
import { md5, sendChunk, t } from './upload-helpers.js';

/**
 * Issue 8, items 4 and 9: slide files moved into place never replace one another (and come back when the
 * insert fails), and a Deep Zoom zip cannot make the bind allocate what its tiles do not back.
 */
describe.each(databases)('slide files and Deep Zoom limits [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;
  /** A technician of hospital 1, and the administrator working in hospital 2. */
  let h1: string;
  let h2: string;
  let hospital2: number;

  /** Uploads `data` as `name` through the chunked-upload API, as the browser does; answers the path to bind. */
  const upload = async (token: string, name: string, data: Buffer, server = app) => {
    const res = await sendChunk(server, { name, data, totalNum: 1, totalMd5: md5(data) }, 1, { token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.code).toBe(1);
    return res.json().data.path as string;
  };
  const bind = (token: string, uploaded: string, extra: object = {}, lang?: string) =>
    call(app, 'POST', '/api/data/kfb/bind', { token, lang, payload: { path: uploaded, ...extra } });
  /** Every file under `dir`/slides/ but thumbnails, relative to the slides folder. */
  const filesOf = (dir: string) => {
    const root = path.join(dir, 'slides');
    return fs.readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !e.parentPath.endsWith('thumbs')).map((e) => path.relative(root, path.join(e.parentPath, e.name))).sort();
  };
  const slideFiles = () => (fs.existsSync(path.join(dataDir, 'slides')) ? filesOf(dataDir) : []);

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-security-slides-'));
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir });
    await app.ready();
    hospital2 = (await h.db.selectFrom('hospitals').select('id').where('code', '=', 'H002').executeTakeFirstOrThrow()).id;
    [h1, h2] = await Promise.all([tokenFor(app, 'technician'), tokenFor(app, 'admin')]);
    expect((await call(app, 'POST', '/api/auth/switch_hospital', { token: h2, payload: { hospital_id: hospital2 } })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  describe('item 4: binds of same-named files', () => {
    /** A photo of one flat colour per index, far enough apart that a thumbnail tells them apart. */
    const colour = (i: number) => [(i * 47) % 256, (i * 101 + 60) % 256, (i * 151 + 120) % 256] as const;
    const photo = (i: number) => sharp({ create: { width: 320, height: 240, channels: 3, background: { r: colour(i)[0], g: colour(i)[1], b: colour(i)[2] } } }).png().toBuffer();
    /** Which photo a thumbnail shows: the nearest colour. */
    const shownIn = async (jpeg: Buffer, count: number) => {
      const { channels } = await sharp(jpeg).stats();
      const mean = channels.slice(0, 3).map((c) => c.mean);
      const distance = (i: number) => colour(i).reduce((sum, v, k) => sum + Math.abs(v - mean[k]), 0);
      return Array.from({ length: count }, (_, i) => i).sort((a, b) => distance(a) - distance(b))[0];
    };

    /** A folder on another file system than the data dir (a NAS mount for slides/), where the machine has one. */
    const elsewhere = () => {
      const shm = '/dev/shm';
      return fs.existsSync(shm) && fs.statSync(shm).dev !== fs.statSync(dataDir).dev ? fs.mkdtempSync(path.join(shm, 'dsms-slides-')) : null;
    };

    it.each([
      ['on one file system', false],
      // Moving across file systems copies: the widest window for two binds to take the same name.
      ['with slides/ on another file system', true],
    ] as const)('20 concurrent binds of different files all named 1.png, from two hospitals, %s: 20 rows, 20 files, each serving its own picture', async (_, remote) => {
      // A database and data dir of its own: stored paths are relative to the data dir.
      const own = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-security-slides-'));
      const target = remote ? elsewhere() : null;
      if (target) fs.symlinkSync(target, path.join(own, 'slides'));
      const fresh = await startApp(kind);
      const server = await testApp(fresh.db, { dataDir: own });
      await server.ready();
      const files = () => filesOf(own);
      try {
        const [t1, t2] = await Promise.all([tokenFor(server, 'technician'), tokenFor(server, 'admin')]);
        const second = (await fresh.db.selectFrom('hospitals').select('id').where('code', '=', 'H002').executeTakeFirstOrThrow()).id;
        expect((await call(server, 'POST', '/api/auth/switch_hospital', { token: t2, payload: { hospital_id: second } })).statusCode).toBe(200);
        const photos = await Promise.all(Array.from({ length: 20 }, (_, i) => photo(i)));
        const tokens = photos.map((_, i) => (i % 2 ? t2 : t1));
        const uploaded: string[] = [];
        for (const [i, bytes] of photos.entries()) uploaded.push(await upload(tokens[i], '1.png', bytes, server));
        expect(new Set(uploaded).size).toBe(20);

        const answers = await Promise.all(uploaded.map((p, i) => call(server, 'POST', '/api/data/kfb/bind', { token: tokens[i], payload: { path: p, name: `photo ${i}` } })));
        expect(answers.map((r) => r.statusCode), answers.filter((r) => r.statusCode !== 200).map((r) => r.body).join('\n')).toEqual(answers.map(() => 200));
        // Each answered at once; read by its ingest job.
        const rows = await Promise.all(answers.map((r, i) => ingested(server, tokens[i], r.json().data.id))) as { id: number; name: string; file_path: string; hospital_id: number; status: string }[];
        expect(new Set(rows.map((r) => r.id)).size).toBe(20);
        expect(new Set(rows.map((r) => r.file_path)).size).toBe(20);
        expect(rows.map((r) => r.hospital_id)).toEqual(rows.map((_, i) => (i % 2 ? second : rows[0].hospital_id)));
        expect(rows[0].hospital_id).not.toBe(second);

        for (const [i, row] of rows.entries()) {
          expect(row).toMatchObject({ name: `photo ${i}`, status: 'ready' });
          // The served TIFF is converted from the photo beside it, which is byte for byte the one uploaded.
          expect(row.file_path).toMatch(/^slides\/\d{4}\/\d{2}\/1(-[0-9a-f]{8})?\.png\.tiff$/);
          expect(md5(fs.readFileSync(path.join(own, row.file_path.slice(0, -'.tiff'.length)))), `photo ${i} on disk`).toBe(md5(photos[i]));
          const thumb = await call(server, 'GET', `/api/data/kfb/thumb/${row.id}`, { token: tokens[i] });
          expect(thumb.statusCode).toBe(200);
          expect(await shownIn(thumb.rawPayload, photos.length), `thumbnail of photo ${i}`).toBe(i);
          const tile = await call(server, 'GET', `/api/tiles/${row.id}_files/9/0_0.jpeg`, { token: tokens[i] });
          expect(tile.statusCode).toBe(200);
          expect(await shownIn(tile.rawPayload, photos.length), `tile of photo ${i}`).toBe(i);
        }
        // 20 originals and 20 converted TIFFs, nothing else; every upload was taken.
        expect(files()).toHaveLength(40);
        expect(fs.readdirSync(path.join(own, 'uploads', 'complete'))).toEqual([]);
      } finally {
        await server.close();
        await fresh.close();
        fs.rmSync(own, { recursive: true, force: true });
        if (target) fs.rmSync(target, { recursive: true, force: true });
      }
    }, 120_000); // 20 uploads, then 20 ingest jobs two at a time on a shared 2-core machine

    it('a file named like another slide\'s converted TIFF (1.png.tiff) neither replaces it nor is replaced', async () => {
      const tiff = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: colour(21)[0], g: colour(21)[1], b: colour(21)[2] } } })
        .tiff({ tile: true, pyramid: true, tileWidth: 256, tileHeight: 256, compression: 'jpeg' }).toBuffer();
      const png = await photo(22);
      // Hospital 2's scan exported as 1.png.tiff first, then hospital 1's photo 1.png, whose conversion is named 1.png.tiff.
      const first = await bind(h2, await upload(h2, '1.png.tiff', tiff));
      expect(first.statusCode, first.body).toBe(200);
      const second = await bind(h1, await upload(h1, '1.png', png));
      expect(second.statusCode, second.body).toBe(200);
      const [a, b] = [await ingested(app, h2, first.json().data.id), await ingested(app, h1, second.json().data.id)];
      expect(a.file_path).not.toBe(b.file_path);
      expect(md5(fs.readFileSync(path.join(dataDir, a.file_path)))).toBe(md5(tiff));
      expect(md5(fs.readFileSync(path.join(dataDir, b.file_path.slice(0, -'.tiff'.length))))).toBe(md5(png));
      // Deleting hospital 2's slide takes its own file only.
      expect((await call(app, 'DELETE', '/api/data/kfb/destroy', { token: h2, payload: { ids: [a.id] } })).statusCode).toBe(200);
      expect(fs.existsSync(path.join(dataDir, b.file_path))).toBe(true);
      expect(md5(fs.readFileSync(path.join(dataDir, b.file_path.slice(0, -'.tiff'.length))))).toBe(md5(png));
      const thumb = await call(app, 'GET', `/api/data/kfb/thumb/${b.id}`, { token: h1 });
      expect(await shownIn(thumb.rawPayload, 23)).toBe(22);
    });

    it('a bind whose insert fails puts the upload back, to be bound again', async () => {
      const bytes = await photo(20);
      const uploaded = await upload(h1, '1.png', bytes);
      const before = slideFiles();
      const rows = await h.db.selectFrom('slides').select('id').execute();
      const refuse = kind === 'postgres'
        ? [
          sql.raw(`CREATE FUNCTION refuse_slide() RETURNS trigger AS $$ BEGIN IF NEW.name = 'refuse me' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`),
          sql.raw('CREATE TRIGGER refuse_slide BEFORE INSERT ON slides FOR EACH ROW EXECUTE FUNCTION refuse_slide()'),
        ]
        : [sql.raw(`CREATE TRIGGER refuse_slide BEFORE INSERT ON slides WHEN NEW.name = 'refuse me' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`)];
      for (const statement of refuse) await statement.execute(h.db);
      try {
        const failed = await bind(h1, uploaded, { name: 'refuse me' });
        expect(failed.statusCode).toBe(500);
      } finally {
        await sql.raw(kind === 'postgres' ? 'DROP TRIGGER refuse_slide ON slides' : 'DROP TRIGGER refuse_slide').execute(h.db);
      }
      expect(md5(fs.readFileSync(path.join(dataDir, uploaded)))).toBe(md5(bytes));
      expect(slideFiles()).toEqual(before);
      expect(await h.db.selectFrom('slides').select('id').execute()).toHaveLength(rows.length);

      const again = await bind(h1, uploaded, { name: 'bound after all' });
      expect(again.statusCode, again.body).toBe(200);
      const row = await ingested(app, h1, again.json().data.id);
      expect(md5(fs.readFileSync(path.join(dataDir, row.file_path.slice(0, -'.tiff'.length))))).toBe(md5(bytes));
      expect(fs.existsSync(path.join(dataDir, uploaded))).toBe(false);
    });
  });

  describe('item 9: Deep Zoom declared size', () => {
    /** The largest growth of resident memory or Buffer memory while `run` runs, sampled every millisecond. */
    const growthDuring = async <T>(run: () => Promise<T>) => {
      const sample = () => ({ rss: process.memoryUsage.rss(), buffers: process.memoryUsage().arrayBuffers });
      const start = sample();
      let peak = 0;
      const note = () => {
        const now = sample();
        peak = Math.max(peak, now.rss - start.rss, now.buffers - start.buffers);
      };
      const timer = setInterval(note, 1);
      try {
        return { result: await run(), growth: (note(), peak) };
      } finally {
        clearInterval(timer);
      }
    };
    const zipOf = async (files: Record<string, Buffer | string>) => {
      const zip = new yazl.ZipFile();
      for (const [name, data] of Object.entries(files)) zip.addBuffer(Buffer.from(data), name);
      zip.end();
      const chunks: Buffer[] = [];
      for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    };
    const dzi = (size: number) => `<Image TileSize="254" Overlap="1" Format="jpeg"><Size Width="${size}" Height="${size}"/></Image>`;

    it.each([
      // A few hundred bytes declaring a terapixel: beyond the limits whatever tiles it holds.
      ['1,000,000 × 1,000,000 with one tile', 1_000_000, 20, 'slide.dzi_too_large', { width: '1,000,000', height: '1,000,000', side: '250,000', pixels: '40,000,000,000' }],
      // Within the limits, but one tile where 394 × 394 are needed.
      ['100,000 × 100,000 with one tile', 100_000, 17, 'slide.dzi_tiles_mismatch', { width: '100,000', height: '100,000', expected: '155,236', found: '1' }],
    ] as const)('refuses a zip declaring %s with a translated 422, allocating nothing large, and keeps the upload', async (_, size, top, key, params) => {
      const tile = await sharp({ create: { width: 254, height: 254, channels: 3, background: '#ddd' } }).jpeg().toBuffer();
      const zip = await zipOf({ 'slide.dzi': dzi(size), [`slide_files/${top}/0_0.jpeg`]: tile });
      const uploaded = await upload(h1, `hostile-${size}.zip`, zip);
      const rows = await h.db.selectFrom('slides').select('id').execute();
      for (const lang of ['zh-CN', 'en-US'] as const) {
        const { result: res, growth } = await growthDuring(() => bind(h1, uploaded, {}, lang));
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json()).toEqual({ message: t(key, params, lang) });
        expect(growth, `${lang}: memory grew by ${Math.round(growth / 2 ** 20)} MB`).toBeLessThan(100 * 2 ** 20);
        // Not bound, nothing converted, the upload where it was (so the refusal repeats, in the other language).
        expect(await h.db.selectFrom('slides').select('id').execute()).toHaveLength(rows.length);
        expect(fs.readFileSync(path.join(dataDir, uploaded)).equals(zip)).toBe(true);
        expect(slideFiles().filter((f) => f.includes('hostile'))).toEqual([]);
      }
      expect(t(key, params, 'zh-CN')).not.toBe(t(key, params, 'en-US'));
    });

    it('still converts an honest Deep Zoom zip', async () => {
      const picture = sharp({ create: { width: 600, height: 400, channels: 3, background: '#369' } });
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-dz-'));
      try {
        await picture.jpeg().tile({ size: 254, overlap: 1, layout: 'dz' }).toFile(path.join(dir, 'honest.zip'));
        const res = await bind(h1, await upload(h1, 'honest.zip', fs.readFileSync(path.join(dir, 'honest.zip'))));
        expect(res.statusCode, res.body).toBe(200);
        // Checked and accepted at once; a background job converts it (tests/api/slides-formats.test.ts follows one through).
        expect(await ingested(app, h1, res.json().data.id)).toMatchObject({ vendor: 'deepzoom', status: 'converting' });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
