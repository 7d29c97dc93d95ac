import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_BYTES as CHUNK } from '../../src/core/constants.js';
import { jobTypesFor } from '../../server/modules/jobs/registry.js';
import { recheckVips, vipsEnv } from '../../server/modules/slides/conversion/vips-cli.js';
import { queueMissingConversions } from '../../server/modules/slides/conversion/sweep.js';
import { startJobRunner, type JobRunner } from '../../server/modules/jobs/runner.js';
import { call, databases, startApp, testApp, tokenFor, type Harness } from './harness.js';
import { md5, sendChunk, type TestFile } from './upload-helpers.js';

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
 * The DICOM folder there is the DICOM importer's (branch `dicom`), not this converter's.
 */
const REAL = path.resolve(process.cwd(), '../../shared/data/real');
const REAL_DIR = process.env.DSMS_REAL_DATA ?? (fs.existsSync(REAL) ? REAL : '/work/shared/data/real');
const present = fs.existsSync(REAL_DIR);
const MAX_MEAN_DIFF = { level0: 3, lower: 16 };
const files = present ? fs.readdirSync(REAL_DIR).filter((f) => /\.(svs|ndpi|mrxs|scn|bif|vms|vmu|svslide)$/i.test(f)).sort() : [];

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

  const upload = async (name: string): Promise<string> => {
    const data = fs.readFileSync(path.join(REAL_DIR, name));
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
    const row = bound.json().data;
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
    expect((await call(app, 'GET', `/api/data/kfb/thumb/${row.id}`, { token: technician })).statusCode).toBe(200);

    const dzi = (await call(app, 'GET', `/api/tiles/${row.id}.dzi`, { token: technician })).body;
    const tileSize = Number(dzi.match(/TileSize="(\d+)"/)![1]);
    const width = Number(dzi.match(/Width="(\d+)"/)![1]);
    const height = Number(dzi.match(/Height="(\d+)"/)![1]);
    const maxLevel = Math.ceil(Math.log2(Math.max(width, height)));
    const source = path.join(REAL_DIR, name);
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
