import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import dicomParser from 'dicom-parser';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { call, ingested, databases, startApp, testApp, tokenFor, type Harness } from './harness.js';
import { messages } from '../../server/i18n/messages.js';
import { md5, multipart } from './upload-helpers.js';
import { realSlide, realSlides } from '../support/real-slides.js';

/**
 * The real DICOM WSI series (shared/data/real/cmu-1-small-region, 12 instances, JPEG baseline, TILED_FULL) zipped,
 * uploaded in chunks, bound and served; hostile series refused with a translated 422 and nothing left behind.
 */
const SERIES = realSlide('cmu-1-small-region');
const present = realSlides('cmu-1-small-region');

/** A Deep Zoom tile we render from a frame (JPEG q90) against the same frame decoded and resampled here: JPEG noise only (the worst, 3.2 of 255, is the 17 × 23 level where every pixel is an edge). */
const MAX_MEAN_ABS_DIFF = 4;

let tpl: string;
const file = (name: string) => path.join(tpl, name);

async function zipOf(out: string, entries: Record<string, Buffer>, patch?: (b: Buffer) => void) {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of Object.entries(entries)) zip.addBuffer(bytes, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  patch?.(bytes);
  fs.writeFileSync(out, bytes);
}

/** The instances as their file names say: level-N-frames-…dcm. */
const instances = () => fs.readdirSync(SERIES).filter((n) => n.endsWith('.dcm')).sort();
const levelFile = (n: number) => instances().find((f) => f.startsWith(`level-${n}-`))!;
const read = (name: string) => fs.readFileSync(path.join(SERIES, name));

/** Frame `i` of an instance as a JPEG, found by dicom-parser reading the whole file: independent of the server's reader. */
function frameOf(file: Buffer, i: number): Buffer {
  const ds = dicomParser.parseDicom(new Uint8Array(file));
  const pixel = ds.elements.x7fe00010;
  const frame = dicomParser.readEncapsulatedImageFrame(ds, pixel, i, dicomParser.createJPEGBasicOffsetTable(ds, pixel));
  const bytes = Buffer.from(frame.buffer, frame.byteOffset, frame.length);
  // Fragments are even-length: an odd JPEG carries one zero byte after its EOI, which is not part of the image.
  const n = bytes.length;
  return n > 3 && bytes[n - 1] === 0 && bytes[n - 2] === 0xd9 && bytes[n - 3] === 0xff ? bytes.subarray(0, n - 1) : bytes;
}

async function meanAbsDiff(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((j) => sharp(j).removeAlpha().raw().toBuffer({ resolveWithObject: true })));
  expect([x.info.width, x.info.height]).toEqual([y.info.width, y.info.height]);
  let sum = 0;
  for (let i = 0; i < x.data.length; i++) sum += Math.abs(x.data[i] - y.data[i]);
  return sum / x.data.length;
}

beforeAll(async () => {
  tpl = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-dicom-tpl-'));
  if (!present) return;
  const all = Object.fromEntries(instances().map((n) => [`cmu-1-small-region/${n}`, read(n)]));
  await zipOf(file('series.zip'), all);

  // One instance moved to another series: same length UID, last digit changed.
  const other = Buffer.from(read(levelFile(3)));
  const series = dicomParser.parseDicom(new Uint8Array(other)).string('x0020000e')!;
  const at = other.indexOf(series, 0, 'latin1');
  other.write(series.slice(0, -1) + (series.endsWith('1') ? '2' : '1'), at, 'latin1');
  await zipOf(file('two-series.zip'), { ...all, 'extra/level-3-copy.dcm': other });

  // Level 0 cut in the middle of its frames.
  const level0 = read(levelFile(0));
  await zipOf(file('truncated.zip'), { ...all, [`cmu-1-small-region/${levelFile(0)}`]: level0.subarray(0, Math.floor(level0.length * 0.6)) });

  // An entry that would land outside the folder it is unpacked to.
  await zipOf(file('slip.zip'), { ...all, 'aa/evil.dcm': read(levelFile(5)) }, (b) => {
    for (let i = b.indexOf('aa/evil.dcm'); i >= 0; i = b.indexOf('aa/evil.dcm', i + 1)) b.write('../evil.dcm', i, 'latin1');
  });

  // Level 1 declaring 10^8 frames (NumberOfFrames is IS "9"; the value grows, the data set after it shifts intact).
  const level1 = read(levelFile(1));
  const declared = dicomParser.parseDicom(new Uint8Array(level1), { untilTag: 'x7fe00010' }).elements.x00280008;
  const huge = Buffer.concat([level1.subarray(0, declared.dataOffset - 2), Buffer.from([8, 0]), Buffer.from('99999999', 'latin1'), level1.subarray(declared.dataOffset + declared.length)]);
  await zipOf(file('huge-frames.zip'), { ...all, [`cmu-1-small-region/${levelFile(1)}`]: huge });
});
afterAll(() => fs.rmSync(tpl, { recursive: true, force: true }));

describe.each(databases)('DICOM WSI import [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;
  let admin: string;

  /** Sends a file through the chunked upload protocol as the browser does; answers the path a bind takes. */
  const upload = async (name: string, bytes: Buffer) => {
    const CHUNK = 2 * 2 ** 20;
    const totalNum = Math.max(1, Math.ceil(bytes.length / CHUNK));
    let last: Record<string, any> = {};
    for (let num = 1; num <= totalNum; num++) {
      const chunk = bytes.subarray((num - 1) * CHUNK, num * CHUNK);
      const body = multipart({ file_name: name, num, total_num: totalNum, md5: md5(chunk), total_md5: md5(bytes) }, { field: 'blob', bytes: chunk });
      const res = await app.inject({ method: 'POST', url: '/api/upload/large', headers: { 'content-type': body.contentType, authorization: `Bearer ${admin}` }, payload: body.payload });
      expect(res.statusCode, res.body).toBe(200);
      last = res.json();
    }
    expect(last.data?.code, JSON.stringify(last)).toBe(1);
    return last.data.path as string;
  };
  const bind = (p: string, lang?: 'zh-CN' | 'en-US') => call(app, 'POST', '/api/data/kfb/bind', { token: admin, lang, payload: { path: p } });
  const get = (url: string) => call(app, 'GET', url, { token: admin });
  const slideFiles = () => (fs.readdirSync(path.join(dataDir, 'slides'), { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .filter((e) => !path.join(e.parentPath, e.name).includes(`${path.sep}thumbs`)).map((e) => path.relative(dataDir, path.join(e.parentPath, e.name))).sort();

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-dicom-'));
    fs.mkdirSync(path.join(dataDir, 'slides'));
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir });
    await app.ready();
    admin = await tokenFor(app, 'admin');
  });
  afterAll(async () => {
    await app.close();
    await h.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  describe.skipIf(!present)('the real series (cmu-1-small-region)', () => {
    let row: Record<string, any>;
    beforeAll(async () => {
      const res = await bind(await upload('cmu-1-small-region.zip', fs.readFileSync(file('series.zip'))));
      expect(res.statusCode, res.body).toBe(200);
      row = await ingested(app, admin, res.json().data.id);
    });

    it('reads levels, size and pixel spacing from the instances', async () => {
      expect(row).toMatchObject({ vendor: 'dicom', status: 'ready', width: 2220, height: 2967, levels: 12, tile_size: 500, has_label: 0, has_macro: 0 });
      expect(row.mpp).toBeCloseTo(0.499, 6);
      expect(row.file_path).toMatch(/^slides\/\d{4}\/\d{2}\/cmu-1-small-region\.zip\.dicom$/);
      // The zip stays beside the folder it was unpacked to: it is the original.
      expect(fs.existsSync(path.join(dataDir, row.file_path.slice(0, -'.dicom'.length)))).toBe(true);
      const thumb = await get(`/api/data/kfb/thumb/${row.id}`);
      expect(thumb.statusCode).toBe(200);
      const meta = await sharp(thumb.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([383, 512]);
    });

    it('serves tile (0,0) of every level as the frame decoded directly (byte for byte where it passes through)', async () => {
      const dzi = await get(`/api/tiles/${row.id}.dzi`);
      expect(dzi.body).toContain('TileSize="500"');
      expect(dzi.body).toContain('<Size Width="2220" Height="2967"/>');
      const top = Math.ceil(Math.log2(2967));
      for (let level = 0; level < 12; level++) {
        const bytes = read(levelFile(level));
        const ds = dicomParser.parseDicom(new Uint8Array(bytes), { untilTag: 'x7fe00010' });
        const width = ds.uint32('x00480006')!, height = ds.uint32('x00480007')!;
        const frame = frameOf(bytes, 0);
        const res = await get(`/api/tiles/${row.id}_files/${top - level}/0_0.jpeg`);
        expect(res.statusCode, `level ${level}`).toBe(200);
        if (width >= 500 && height >= 500) {
          // A whole interior frame: the stored JPEG itself.
          expect(res.rawPayload.equals(frame), `level ${level} passes through`).toBe(true);
        } else {
          // A frame smaller than a tile is the whole level; Deep Zoom's level is up to a pixel larger (it rounds up
          // where the scanner rounded down), so the server stretches the frame: the reference is stretched alike.
          const served = await sharp(res.rawPayload).metadata();
          expect(Math.abs(served.width! - width)).toBeLessThanOrEqual(1);
          expect(Math.abs(served.height! - height)).toBeLessThanOrEqual(1);
          const a = await sharp(res.rawPayload).png().toBuffer();
          const b = await sharp(frame).resize(served.width!, served.height!, { fit: 'fill', kernel: 'lanczos3' }).png().toBuffer();
          expect(await meanAbsDiff(a, b), `level ${level}`).toBeLessThan(MAX_MEAN_ABS_DIFF);
        }
      }
    });

    it('answers IIIF info and says there is no label', async () => {
      const info = await get(`/api/iiif/${row.id}/info.json`);
      expect(info.statusCode).toBe(200);
      expect(info.json()).toMatchObject({ width: 2220, height: 2967 });
      expect((await get(`/api/tiles/${row.id}/associated/label`)).statusCode).toBe(404);
    });

    it('downloads give back the zip that was uploaded', async () => {
      const link = await call(app, 'POST', `/api/data/kfb/download/${row.id}`, { token: admin });
      expect(link.statusCode, link.body).toBe(200);
      const res = await app.inject({ method: 'GET', url: link.json().data.url });
      expect(res.statusCode).toBe(200);
      expect(md5(res.rawPayload)).toBe(md5(fs.readFileSync(file('series.zip'))));
    });

    it('binds a series folder an operator put under slides/, and downloads it zipped', async () => {
      const folder = path.join(dataDir, 'slides', 'pacs', 'cmu-1');
      fs.mkdirSync(folder, { recursive: true });
      for (const n of instances()) fs.copyFileSync(path.join(SERIES, n), path.join(folder, n));
      const res = await bind('slides/pacs/cmu-1');
      expect(res.statusCode, res.body).toBe(200);
      const placed = await ingested(app, admin, res.json().data.id);
      expect(placed).toMatchObject({ vendor: 'dicom', width: 2220, height: 2967, levels: 12, file_path: 'slides/pacs/cmu-1' });
      const tile = await get(`/api/tiles/${placed.id}_files/12/0_0.jpeg`);
      expect(tile.rawPayload.equals(frameOf(read(levelFile(0)), 0))).toBe(true);
      const link = await call(app, 'POST', `/api/data/kfb/download/${placed.id}`, { token: admin });
      const zipped = await app.inject({ method: 'GET', url: link.json().data.url });
      expect(zipped.statusCode).toBe(200);
      expect(zipped.headers['content-type']).toBe('application/zip');
      const out = file(`download-${kind}.zip`);
      fs.writeFileSync(out, zipped.rawPayload);
      const zip = await yauzl.openPromise(out, { lazyEntries: true, autoClose: false });
      const names: string[] = [];
      for await (const entry of zip.eachEntry()) names.push(entry.fileName);
      zip.close();
      expect(names).toEqual(instances());
    });

    it('refuses to bind the zip again (its folder is served)', async () => {
      const again = await bind(`${row.file_path.slice(0, -'.dicom'.length)}`);
      expect(again.statusCode).toBe(409);
    });

    it('deleting the slide removes the folder and the zip', async () => {
      const folder = path.join(dataDir, row.file_path);
      const res = await call(app, 'DELETE', '/api/data/kfb/destroy', { token: admin, payload: { ids: [row.id] } });
      expect(res.statusCode, res.body).toBe(200);
      expect(fs.existsSync(folder)).toBe(false);
      expect(fs.existsSync(folder.slice(0, -'.dicom'.length))).toBe(false);
    });
  });

  describe.skipIf(!present)('hostile series are refused by the ingest job, with a translated reason, and leave nothing behind', () => {
    const cases: [string, string, string][] = [
      ['two-series.zip', 'dicom.mixed_series', 'two series'],
      ['truncated.zip', 'dicom.truncated', 'a truncated instance'],
      ['slip.zip', 'dicom.zip_unsafe_path', 'zip-slip'],
      ['huge-frames.zip', 'dicom.too_many_frames', 'a huge declared frame count'],
    ];
    it.each(cases)('%s (%s)', async (name, key) => {
      const before = slideFiles();
      const p = await upload(name, fs.readFileSync(file(name)));
      const res = await bind(p, 'en-US');
      // Bind answers at once; the ingest job reads the instances and refuses the series, once (no retry can help).
      expect(res.statusCode, res.body).toBe(200);
      const row = await ingested(app, admin, res.json().data.id);
      expect(row).toMatchObject({ status: 'error', format_note: 'ingest_failed', width: null });
      const job = (await call(app, 'GET', `/api/jobs/slide/${row.id}?type=slides.ingest`, { token: admin, lang: 'en-US' })).json().data;
      expect(job).toMatchObject({ status: 'failed', attempts: 1 });
      // Every literal part of the English message is in the job's error (the placeholders name the file and the numbers).
      for (const part of (messages[key as keyof typeof messages]['en-US'] as string).split(/\{\{\w+\}\}/)) expect(job.error_text, key).toContain(part);
      const zh = (await call(app, 'GET', `/api/jobs/slide/${row.id}?type=slides.ingest`, { token: admin, lang: 'zh-CN' })).json().data;
      expect(zh.error_text).not.toBe(job.error_text);
      // Nothing unpacked is left, nothing is served; the zip is kept as the slide's file, to download or delete.
      expect(slideFiles()).toEqual([...before, row.file_path].sort());
      expect((await get(`/api/tiles/${row.id}.dzi`)).statusCode).toBe(404);
      expect((await call(app, 'DELETE', '/api/data/kfb/destroy', { token: admin, payload: { ids: [row.id] } })).statusCode).toBe(200);
      expect(slideFiles()).toEqual(before);
    });
  });
});
