import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../server/http/errors.js';
import { jobTypesFor } from '../../server/modules/job-types.js';
import { startJobRunner, type JobRunner } from '../../server/modules/jobs/runner.js';
import { convertWithOpenSlide } from '../../server/modules/slides/conversion/openslide-convert.js';
import { fromStored } from '../../server/modules/slides/paths.js';
import { call, databases, ingested, startApp, testApp, tokenFor, type Harness } from './harness.js';
import { t } from './upload-helpers.js';

/**
 * Issue 27, finding 6: photos and striped TIFFs were converted with no pixel cap (a 1.5 MB PNG became a 1.6-gigapixel
 * conversion). Every conversion path reads the image's size from its header first and refuses, before decoding, what
 * declares more than its cap (CONVERT_MAX_PIXELS, CONVERT_SLIDE_MAX_PIXELS; tiny here): the slide ends as an error,
 * no converted file is left, and its job keeps the translated reason. What fits still converts.
 */
const CAPS = { photoPixels: 10_000, slidePixels: 10_000 };

/** CRC-32 of PNG chunks (ISO 3309). */
function crc32(bytes: Buffer): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** A real PNG whose header is rewritten to declare `width` × `height`: its pixel data no longer fits, so only a header check can name it. */
function lyingPng(png: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(png);
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)), 29);
  return out;
}

describe.each(databases)('conversion pixel caps [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;
  let admin: string;
  let runner: JobRunner;

  beforeAll(async () => {
    h = await startApp(kind);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-caps-'));
    app = await testApp(h.db, { dataDir }, { ingest: false });
    await app.ready();
    admin = await tokenFor(app, 'admin');
    runner = startJobRunner(h.db, { types: jobTypesFor({ dataDir, jobLeaseMs: 30_000, pixelCaps: CAPS }), log: { info() {}, warn() {}, error() {} }, pollMs: 50 });
  });
  afterAll(async () => {
    await runner?.stop();
    await app?.close();
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  let serial = 0;
  /** Places the file as a finished upload, binds it, and answers the slide once its ingest job has ended. */
  const bind = async (name: string, data: Buffer) => {
    const dir = path.join(dataDir, 'uploads', 'complete', `c${++serial}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, name), data);
    const res = await call(app, 'POST', '/api/data/kfb/bind', { token: admin, payload: { path: `uploads/complete/c${serial}/${name}` } });
    expect(res.statusCode, res.body).toBe(200);
    const row = await ingested(app, admin, res.json().data.id);
    const { file_path: stored } = await h.db.selectFrom('slides').select('file_path').where('id', '=', row.id).executeTakeFirstOrThrow();
    return { row, file: fromStored(dataDir, stored) };
  };
  const image = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#e0c0d0' } });
  const refusal = (width: string, height: string) => ({ width, height, side: '250,000', pixels: '10,000' });

  const expectRefused = async (row: Record<string, any>, file: string, params: Record<string, string>) => {
    expect(row).toMatchObject({ status: 'error', width: null });
    // Nothing was converted: the row keeps the original, with no TIFF beside it, nor a partial one.
    expect(fs.existsSync(file)).toBe(true);
    expect(fs.readdirSync(path.dirname(file)).filter((f) => f.startsWith(`${path.basename(file)}.`))).toEqual([]);
    for (const lang of ['zh-CN', 'en-US'] as const) {
      const job = (await call(app, 'GET', `/api/jobs/slide/${row.id}?type=slides.ingest`, { token: admin, lang })).json().data;
      expect(job).toMatchObject({ status: 'failed', attempts: 1, error: JSON.stringify({ key: 'slide.too_many_pixels', params }) });
      expect(job.error_text).toBe(t('slide.too_many_pixels', params, lang));
    }
  };

  it('refuses a photo declaring more pixels than the cap, with the reason on its job', async () => {
    const { row, file } = await bind('wide.png', await image(200, 100).png().toBuffer());
    await expectRefused(row, file, refusal('200', '100'));
    expect(t('slide.too_many_pixels', refusal('200', '100'), 'en-US')).toContain('200 × 100 pixels, beyond the conversion limit');
  });

  it('refuses from the header alone: a PNG declaring 100,000 × 100,000 px over a few bytes of pixels', async () => {
    const { row, file } = await bind('bomb.png', lyingPng(await image(20, 20).png().toBuffer(), 100_000, 100_000));
    await expectRefused(row, file, refusal('100,000', '100,000'));
  });

  it('refuses a striped TIFF past the cap the same way', async () => {
    const { row, file } = await bind('striped.tif', await image(150, 100).tiff({ tile: false }).toBuffer());
    await expectRefused(row, file, refusal('150', '100'));
  });

  it('still converts a photo within the cap', async () => {
    const { row } = await bind('small.png', await image(100, 90).png().toBuffer());
    expect(row).toMatchObject({ status: 'ready', width: 100, height: 90 });
  });

  it('refuses an OpenSlide conversion past its cap before libvips runs', async () => {
    const dir = fs.mkdtempSync(path.join(dataDir, 'os-'));
    const file = path.join(dir, 'scan.tif');
    await image(300, 200).tiff({ tile: true, tileWidth: 64, tileHeight: 64 }).toFile(file);
    const err = await convertWithOpenSlide(file, { maxPixels: 10_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 422, key: 'slide.too_many_pixels', params: refusal('300', '200') });
    expect(fs.readdirSync(dir)).toEqual(['scan.tif']);
  });
});
