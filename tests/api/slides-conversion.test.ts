import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import dicomParser from 'dicom-parser';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { UPLOAD_CHUNK_BYTES as CHUNK } from '../../src/core/constants.js';
import { jobTypesFor } from '../../server/modules/job-types.js';
import { recheckVips, vipsEnv } from '../../server/modules/slides/conversion/vips-cli.js';
import { queueMissingConversions } from '../../server/modules/slides/conversion/sweep.js';
import { readOne } from '../../server/modules/slides/conversion/openslide-associated.js';
import { startJobRunner, type JobRunner } from '../../server/modules/jobs/runner.js';
import { call, databases, ingested, startApp, testApp, tokenFor, type Harness } from './harness.js';
import { md5, sendChunk, type TestFile } from './upload-helpers.js';
import { REAL_DIR, realSlides } from '../support/real-slides.js';

const exec = promisify(execFile);
/** Debian's vips, without the VIPSHOME sharp sets (see vipsEnv). */
const run = (cmd: string, args: string[]) => exec(cmd, args, { env: vipsEnv() });

/**
 * Every real scanner file in ../shared/data/real goes the way a hospital's does: chunked upload, bind (answered
 * at once, 'converting' where the tile server cannot pass the file through), the conversion job, then tiles.
 * A tile of every level is compared with OpenSlide's own reading of the same region (libvips `openslideload`
 * of level 0, cropped and box-shrunk to the level's scale), as mean absolute difference per channel (0–255):
 * below 3 at level 0, where only the JPEG quality 90 re-encoding differs (measured 0.0–1.7), and below 16 at the
 * lower levels, where the Deep Zoom level (ceil(W / 2^k) wide) is drawn from a stored level libvips halved
 * with floor, a sub-pixel shift a box shrink of level 0 does not have (measured 0.3–12 on these files).
 * The thumbnail, label and macro OpenSlide lists are served at OpenSlide's size and pixels (below 6: the served JPEG's
 * noise on a label's sharp black-on-white print, measured 3.7; 0.3–1 on the macros), a converted slide's too; its
 * list thumbnail is made from the scanner's thumbnail.
 * A DICOM WSI series folder there is zipped (as a hospital uploads one) and read natively: a tile of every level
 * against its instance's frame, decoded by dicom-parser (OpenSlide 3.4 reads no DICOM), below 4 (JPEG noise).
 * Every entry of the folder is taken; one this test does not know how to bring in fails it.
 */
const present = realSlides();
const MAX_MEAN_DIFF = { level0: 3, lower: 16, associated: 6, dicom: 4 };
/** Notes beside the data (SOURCES.md) are not slides. */
const entries = present ? fs.readdirSync(REAL_DIR).filter((f) => !/\.(md|txt)$/i.test(f)).sort() : [];
const isSeries = (name: string) => fs.statSync(path.join(REAL_DIR, name)).isDirectory();
const files = entries.filter((f) => !isSeries(f));
const series = entries.filter(isSeries);

if (!present) {
  describe('real scanner files', () => {
    it.skip(`skipped: ${REAL_DIR} is absent (the real slide files are not committed)`, () => {});
  });
}

describe.runIf(present).each(databases)('real scanner files: upload → bind → job → tiles [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;
  let work: string;
  let runner: JobRunner;
  let technician: string;
  let admin: string;

  beforeAll(async () => {
    h = await startApp(kind);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-real-'));
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-real-ref-'));
    app = await testApp(h.db, { dataDir });
    await app.ready();
    technician = await tokenFor(app, 'technician');
    admin = await tokenFor(app, 'admin');
    runner = startJobRunner(h.db, { types: jobTypesFor({ dataDir, jobLeaseMs: 30_000 }), log: { info() {}, warn() {}, error() {} }, pollMs: 100 });
  });
  afterAll(async () => {
    await runner?.stop();
    await app?.close();
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  const upload = async (name: string, data = fs.readFileSync(path.join(REAL_DIR, name))): Promise<string> => {
    const file: TestFile = { name, data, totalNum: Math.max(1, Math.ceil(data.length / CHUNK)), totalMd5: md5(data) };
    let answer: Record<string, unknown> = {};
    for (let num = 1; num <= file.totalNum; num++) {
      const res = await sendChunk(app, file, num, { token: technician });
      expect(res.statusCode, res.body).toBe(200);
      answer = res.json().data;
    }
    expect(answer).toMatchObject({ code: 1 });
    return String(answer.path);
  };

  const slide = async (id: number) => (await call(app, 'GET', `/api/data/kfb/item/${id}`, { token: technician })).json().data;

  /** Level 0 as OpenSlide reads it, cropped to a region and shrunk by `factor`: raw RGB. */
  const reference = async (original: string, x: number, y: number, w: number, h: number, factor: number) => {
    const crop = path.join(work, `crop-${process.hrtime.bigint()}.v`);
    const out = path.join(work, `ref-${process.hrtime.bigint()}.png`);
    await run('vips', ['crop', `${original}[rgb]`, crop, String(x), String(y), String(w), String(h)]);
    await run('vips', ['shrink', crop, out, String(factor), String(factor)]);
    const ref = await sharp(out).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    fs.rmSync(crop, { force: true });
    fs.rmSync(out, { force: true });
    return ref;
  };

  it.each(files)('%s', async (name) => {
    const uploaded = await upload(name);
    const bound = await call(app, 'POST', '/api/data/kfb/bind', { token: technician, payload: { path: uploaded } });
    expect(bound.statusCode, bound.body).toBe(200);
    expect(bound.json().data).toMatchObject({ status: 'ingesting' });
    // The ingest job reads the file, then the slide is ready or handed to its conversion.
    const row = await ingested(app, technician, bound.json().data.id);
    const needsConversion = row.status === 'converting';
    if (/\.ndpi$/i.test(name) || name.startsWith('tcga')) expect(row).toMatchObject({ status: 'converting' });

    const end = Date.now() + 240_000;
    let current = await slide(row.id);
    while (current.status === 'converting') {
      if (Date.now() > end) throw new Error(`${name} still converting`);
      await new Promise((r) => setTimeout(r, 200));
      current = await slide(row.id);
    }
    expect(current, JSON.stringify(current)).toMatchObject({ status: 'ready' });
    expect(await h.db.selectFrom('slides').select('progress').where('id', '=', row.id).executeTakeFirst()).toEqual({ progress: null });
    // MPP as OpenSlide reads it from the original (the TCGA export carries none).
    const mpp = Number((await run('vipsheader', ['-f', 'openslide.mpp-x', path.join(REAL_DIR, name)]).catch(() => ({ stdout: '' }))).stdout.trim());
    if (mpp > 0) expect(current.mpp).toBeCloseTo(mpp, 3);
    else expect(current.mpp).toBeNull();
    if (needsConversion) {
      expect(current.file_path).toMatch(/\.(ndpi|svs)\.tiff$/);
      expect(current.format_note).toBe(/\.ndpi$/i.test(name) ? 'converted_ndpi' : 'jp2k_reencoded');
      // The slide is ready a moment before its job is recorded done.
      let job = (await call(app, 'GET', `/api/jobs/slide/${row.id}`, { token: technician, lang: 'en-US' })).json().data;
      while (job.status === 'running' && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 50));
        job = (await call(app, 'GET', `/api/jobs/slide/${row.id}`, { token: technician, lang: 'en-US' })).json().data;
      }
      expect(job, JSON.stringify(job)).toMatchObject({ status: 'done', progress: 100, attempts: 1, error: null });
      // The original is kept beside its pyramid, byte for byte what was uploaded.
      const original = path.join(dataDir, current.file_path.replace(/\.tiff$/, ''));
      expect(md5(fs.readFileSync(original))).toBe(md5(fs.readFileSync(path.join(REAL_DIR, name))));
      // A download gives back what was uploaded, under the original's extension.
      const link = await call(app, 'POST', `/api/data/kfb/download/${row.id}`, { token: admin });
      expect(link.statusCode, link.body).toBe(200);
      const download = await app.inject({ method: 'GET', url: link.json().data.url });
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-disposition']).toContain(path.extname(name));
      expect(md5(download.rawPayload)).toBe(md5(fs.readFileSync(path.join(REAL_DIR, name))));
      // No partial file is left behind.
      expect(fs.readdirSync(path.dirname(original)).filter((f) => f.endsWith('.partial'))).toEqual([]);
    }
    const thumb = await call(app, 'GET', `/api/data/kfb/thumb/${row.id}`, { token: technician });
    expect(thumb.statusCode).toBe(200);
    const source = path.join(REAL_DIR, name);

    // Thumbnail, label and macro: what OpenSlide lists of the original, at its size and with its pixels (converted or not).
    const listed = (await run('vipsheader', ['-f', 'slide-associated-images', source]).catch(() => ({ stdout: '' }))).stdout.split(/[,\s]+/);
    for (const kind of ['thumbnail', 'label', 'macro'] as const) {
      const has = listed.includes(kind);
      if (kind !== 'thumbnail') expect(current[`has_${kind}`], `${name} has_${kind}`).toBe(has ? 1 : 0);
      const res = await call(app, 'GET', `/api/tiles/${row.id}/associated/${kind}`, { token: technician });
      if (!has) { expect(res.statusCode, `${name} ${kind}`).toBe(404); continue; }
      expect(res.statusCode, `${name} ${kind}`).toBe(200);
      const got = await sharp(res.rawPayload).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      // OpenSlide 3.4's properties do not give the size: libopenslide's own reading does.
      const ref = (await readOne(source, kind))!;
      expect([got.info.width, got.info.height], `${name} ${kind} size`).toEqual([ref.width, ref.height]);
      const mean = meanDiff(got.data, got.info.width, ref.rgb, ref.width, ref.width, ref.height);
      console.info(`${name} ${kind}: ${ref.width}×${ref.height}, mean abs diff ${mean.toFixed(2)}`);
      expect(mean, `${name} ${kind} pixels`).toBeLessThan(MAX_MEAN_DIFF.associated);
    }
    if (needsConversion && listed.includes('thumbnail')) {
      // A converted slide's list thumbnail is the scanner's, fit in 512 px, not its pyramid's smallest level.
      const stored = (await readOne(source, 'thumbnail'))!;
      const scale = Math.min(1, 512 / stored.width, 512 / stored.height);
      const got = await sharp(thumb.rawPayload).metadata();
      expect(Math.abs(got.width! - stored.width * scale), `${name} thumbnail width ${got.width}`).toBeLessThanOrEqual(1);
      expect(Math.abs(got.height! - stored.height * scale), `${name} thumbnail height ${got.height}`).toBeLessThanOrEqual(1);
    }

    const dzi = (await call(app, 'GET', `/api/tiles/${row.id}.dzi`, { token: technician })).body;
    const tileSize = Number(dzi.match(/TileSize="(\d+)"/)![1]);
    const width = Number(dzi.match(/Width="(\d+)"/)![1]);
    const height = Number(dzi.match(/Height="(\d+)"/)![1]);
    const maxLevel = Math.ceil(Math.log2(Math.max(width, height)));
    const diffs: string[] = [];
    for (let k = 0; k < current.levels; k++) {
      const f = 2 ** k;
      const lw = Math.ceil(width / f);
      const lh = Math.ceil(height / f);
      // A tile near the middle of the level (where there is tissue), whole tiles only so no edge rounding enters.
      const col = Math.max(0, Math.floor((lw / 2) / tileSize) - (lw >= 2 * tileSize ? 1 : 0));
      const rowN = Math.max(0, Math.floor((lh / 2) / tileSize) - (lh >= 2 * tileSize ? 1 : 0));
      const res = await call(app, 'GET', `/api/tiles/${row.id}_files/${maxLevel - k}/${col}_${rowN}.jpeg`, { token: technician });
      expect(res.statusCode, `${name} level ${k}`).toBe(200);
      const got = await sharp(res.rawPayload).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const w = Math.floor(got.info.width / 2) * 2 > 0 ? got.info.width : 1;
      const hgt = got.info.height;
      // Whole-factor blocks only: the last partial block of a level is averaged differently by each reader.
      const cw = Math.floor(Math.min(w * f, width - col * tileSize * f) / f) * f;
      const ch = Math.floor(Math.min(hgt * f, height - rowN * tileSize * f) / f) * f;
      if (cw < f || ch < f) continue;
      const ref = await reference(source, col * tileSize * f, rowN * tileSize * f, cw, ch, f);
      const mean = meanDiff(got.data, got.info.width, ref.data, ref.info.width, Math.min(ref.info.width, w), Math.min(ref.info.height, hgt));
      diffs.push(`L${k}:${mean.toFixed(2)}`);
    }
    console.info(`${name} [${kind}] mean abs diff per level: ${diffs.join(' ')}`);
    for (const [k, d] of diffs.entries()) expect(Number(d.split(':')[1]), `${name} ${d}`).toBeLessThan(k === 0 ? MAX_MEAN_DIFF.level0 : MAX_MEAN_DIFF.lower);
  }, 300_000);

  it.runIf(series.length > 0).each(series)('%s/ (DICOM WSI series, zipped)', async (name) => {
    const folder = path.join(REAL_DIR, name);
    const instances = fs.readdirSync(folder).filter((f) => f.endsWith('.dcm')).sort();
    expect(instances.length, `${name} holds DICOM instances`).toBeGreaterThan(0);
    const zip = new yazl.ZipFile();
    for (const f of instances) zip.addBuffer(fs.readFileSync(path.join(folder, f)), `${name}/${f}`);
    zip.end();
    const parts: Buffer[] = [];
    for await (const part of zip.outputStream) parts.push(part as Buffer);
    const bound = await call(app, 'POST', '/api/data/kfb/bind', { token: technician, payload: { path: await upload(`${name}.zip`, Buffer.concat(parts)) } });
    expect(bound.statusCode, bound.body).toBe(200);
    // Read in place once ingested: ready, no conversion job.
    const row = await ingested(app, technician, bound.json().data.id);
    expect(row).toMatchObject({ vendor: 'dicom', status: 'ready' });
    expect((await call(app, 'GET', `/api/data/kfb/thumb/${row.id}`, { token: technician })).statusCode).toBe(200);

    // Each instance: its size, frame size, and frames (TILED_FULL: row by row).
    const levels = instances.map((f) => {
      const bytes = fs.readFileSync(path.join(folder, f));
      const ds = dicomParser.parseDicom(new Uint8Array(bytes));
      const pixel = ds.elements.x7fe00010;
      const table = dicomParser.createJPEGBasicOffsetTable(ds, pixel);
      return {
        width: ds.uint32('x00480006')!, height: ds.uint32('x00480007')!, frameWidth: ds.uint16('x00280011')!, frameHeight: ds.uint16('x00280010')!,
        frame: (i: number) => Buffer.from(dicomParser.readEncapsulatedImageFrame(ds, pixel, i, table)),
      };
    }).sort((a, b) => b.width - a.width);
    expect(row.levels).toBe(levels.length);
    const dzi = (await call(app, 'GET', `/api/tiles/${row.id}.dzi`, { token: technician })).body;
    const tileSize = Number(dzi.match(/TileSize="(\d+)"/)![1]);
    const width = Number(dzi.match(/Width="(\d+)"/)![1]);
    const height = Number(dzi.match(/Height="(\d+)"/)![1]);
    const maxLevel = Math.ceil(Math.log2(Math.max(width, height)));
    const diffs: string[] = [];
    for (let k = 0; k < row.levels; k++) {
      const lw = Math.ceil(width / 2 ** k), lh = Math.ceil(height / 2 ** k);
      // The k-th largest instance is level k: the scanner may round down where Deep Zoom rounds up.
      const level = levels[k];
      expect(Math.max(Math.abs(level.width - lw), Math.abs(level.height - lh)), `${name} level ${k} (${lw}×${lh})`).toBeLessThanOrEqual(1);
      expect(level.frameWidth).toBe(Math.min(tileSize, level.width));
      const across = Math.ceil(level.width / level.frameWidth);
      expect(level.frameHeight).toBe(Math.min(tileSize, level.height));
      // A whole frame near the middle where there is one, else the first (the whole level).
      const col = level.width >= 2 * tileSize ? Math.floor(level.width / 2 / tileSize) - 1 : 0;
      const r = level.height >= 2 * tileSize ? Math.floor(level.height / 2 / tileSize) - 1 : 0;
      const res = await call(app, 'GET', `/api/tiles/${row.id}_files/${maxLevel - k}/${col}_${r}.jpeg`, { token: technician });
      expect(res.statusCode, `${name} level ${k}`).toBe(200);
      const got = await sharp(res.rawPayload).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      // The frame, cut to the level's edge and stretched to the served tile where the level is up to a pixel larger.
      const frameW = Math.min(level.frameWidth, level.width - col * tileSize), frameH = Math.min(level.frameHeight, level.height - r * level.frameHeight);
      const ref = await sharp(level.frame(r * across + col)).extract({ left: 0, top: 0, width: frameW, height: frameH })
        .resize(got.info.width, got.info.height, { fit: 'fill', kernel: 'lanczos3' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const mean = meanDiff(got.data, got.info.width, ref.data, ref.info.width, got.info.width, got.info.height);
      diffs.push(`L${k}:${mean.toFixed(2)}`);
      expect(mean, `${name} level ${k} tile ${col}_${r}`).toBeLessThan(MAX_MEAN_DIFF.dicom);
    }
    console.info(`${name}/ [${kind}] mean abs diff per level: ${diffs.join(' ')}`);
  }, 300_000);
});

function meanDiff(a: Buffer, aw: number, b: Buffer, bw: number, w: number, h: number): number {
  let sum = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w * 3; x++) sum += Math.abs(a[y * aw * 3 + x] - b[y * bw * 3 + x]);
  }
  return sum / (w * h * 3);
}

describe.runIf(present).each(databases)('without libvips on PATH [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;
  let technician: string;
  const PATH = process.env.PATH;

  beforeAll(async () => {
    h = await startApp(kind);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-novips-'));
    app = await testApp(h.db, { dataDir });
    await app.ready();
    technician = await tokenFor(app, 'technician');
  });
  afterAll(async () => {
    process.env.PATH = PATH;
    recheckVips();
    await app?.close();
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('says in both languages what to install, and converts once libvips is there', async () => {
    const name = files.find((f) => f.endsWith('.ndpi'))!;
    const id = 'unovips';
    fs.mkdirSync(path.join(dataDir, 'uploads', 'complete', id), { recursive: true });
    fs.copyFileSync(path.join(REAL_DIR, name), path.join(dataDir, 'uploads', 'complete', id, 'scan.ndpi'));
    const bound = await call(app, 'POST', '/api/data/kfb/bind', { token: technician, payload: { path: `uploads/complete/${id}/scan.ndpi` } });
    expect(bound.statusCode, bound.body).toBe(200);
    const slideId = bound.json().data.id;

    const types = jobTypesFor({ dataDir, jobLeaseMs: 30_000 });
    const quiet = { info() {}, warn() {}, error() {} };
    process.env.PATH = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-empty-path-'));
    recheckVips();
    let runner = startJobRunner(h.db, { types, log: quiet, pollMs: 50 });
    const jobOf = async (lang: string) => (await call(app, 'GET', `/api/jobs/slide/${slideId}`, { token: technician, lang })).json().data;
    try {
      const end = Date.now() + 30_000;
      while ((await jobOf('en-US')).status !== 'failed') {
        if (Date.now() > end) throw new Error('the job did not fail');
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await runner.stop();
      process.env.PATH = PATH;
      recheckVips();
    }
    const row = (await call(app, 'GET', `/api/data/kfb/item/${slideId}`, { token: technician })).json().data;
    expect(row).toMatchObject({ status: 'needs_conversion', format_note: 'vips_missing' });
    expect((await jobOf('en-US')).error_text).toContain('install libvips-tools');
    expect((await jobOf('zh-CN')).error_text).toContain('请安装 libvips-tools');

    // Installed since: the start-up sweep queues the slide again and it converts.
    expect(await queueMissingConversions(h.db, dataDir)).toBe(1);
    runner = startJobRunner(h.db, { types, log: quiet, pollMs: 50 });
    try {
      const end = Date.now() + 120_000;
      while ((await jobOf('en-US')).status !== 'done') {
        if (Date.now() > end) throw new Error('the conversion did not finish');
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await runner.stop();
    }
    const ready = (await call(app, 'GET', `/api/data/kfb/item/${slideId}`, { token: technician })).json().data;
    expect(ready).toMatchObject({ status: 'ready', format_note: 'converted_ndpi' });

    // The pyramid is a derived file: gone, the sweep makes it again from the original.
    fs.rmSync(path.join(dataDir, ready.file_path));
    expect(await queueMissingConversions(h.db, dataDir)).toBe(1);
    runner = startJobRunner(h.db, { types, log: quiet, pollMs: 50 });
    try {
      const end = Date.now() + 120_000;
      while (!fs.existsSync(path.join(dataDir, ready.file_path)) || (await jobOf('en-US')).status !== 'done') {
        if (Date.now() > end) throw new Error('the pyramid was not rebuilt');
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await runner.stop();
    }
    expect((await call(app, 'GET', `/api/data/kfb/item/${slideId}`, { token: technician })).json().data).toMatchObject({ status: 'ready', file_path: ready.file_path });
  }, 300_000);
});
