import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobTypesFor } from '../../server/modules/job-types.js';
import { startJobRunner } from '../../server/modules/jobs/runner.js';
import { seedDemoSlides } from '../../server/db/seed/demo-slides.js';
import { DEMO_SLIDES } from '../../server/db/seed/demo-slide-files.js';
import { latestJobOfSlide } from '../../server/modules/jobs/queries.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { ingestNow } from '../../server/modules/slides/ingest-now.js';
import { SLIDE_INGEST } from '../../server/modules/slides/ingest.js';
import { thumbPath } from '../../server/modules/slides/paths.js';
import { registerSlide } from '../../server/modules/slides/register.js';
import { call, databases, ingested, startApp, testApp, tokenFor, type Harness } from './harness.js';
import { t } from './upload-helpers.js';

/**
 * Bind answers at once with the slide 'ingesting' and its ingest job queued; until the job has read the file, the
 * slide's tiles, descriptor and thumbnail answer 409 "still being processed" in the user's language, never half a
 * file. The app here runs no job (testApp ingest: false) until the test starts a runner, so the wait is seen for sure.
 */
describe.each(databases)('slide ingest job [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;
  let admin: string;

  beforeAll(async () => {
    h = await startApp(kind);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-ingest-'));
    app = await testApp(h.db, { dataDir }, { ingest: false });
    await app.ready();
    admin = await tokenFor(app, 'admin');
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers the bind at once, serves nothing while ingesting, then the job makes it ready', async () => {
    const dir = path.join(dataDir, 'uploads', 'complete', 'i1');
    fs.mkdirSync(dir, { recursive: true });
    await generateDemoSlide({ out: path.join(dir, 'scan.tiff'), width: 1500, height: 1000, tileSize: 256, mpp: 0.25, seed: 3, slideId: 'I-1', label: true });
    const res = await call(app, 'POST', '/api/data/kfb/bind', { token: admin, payload: { path: 'uploads/complete/i1/scan.tiff' } });
    expect(res.statusCode, res.body).toBe(200);
    const bound = res.json().data;
    expect(bound).toMatchObject({ status: 'ingesting', progress: 0, thumb_url: null, width: null, md5: null });
    expect((await call(app, 'GET', `/api/jobs/slide/${bound.id}?type=slides.ingest`, { token: admin })).json().data).toMatchObject({ status: 'queued', progress: 0 });

    for (const lang of ['zh-CN', 'en-US'] as const) {
      for (const url of [`/api/tiles/${bound.id}.dzi`, `/api/tiles/${bound.id}_files/10/0_0.jpeg`, `/api/data/kfb/thumb/${bound.id}`]) {
        const refused = await call(app, 'GET', url, { token: admin, lang });
        expect(refused.statusCode, url).toBe(409);
        expect(refused.json(), url).toEqual({ message: t('slide.processing', {}, lang) });
      }
    }
    expect(t('slide.processing', {}, 'zh-CN')).not.toBe(t('slide.processing', {}, 'en-US'));

    const runner = startJobRunner(h.db, { types: jobTypesFor({ dataDir, jobLeaseMs: 30_000 }), log: { info() {}, warn() {}, error() {} }, pollMs: 50 });
    try {
      const row = await ingested(app, admin, bound.id);
      expect(row).toMatchObject({ status: 'ready', width: 1500, height: 1000, has_label: 1, progress: null, thumb_url: `/api/data/kfb/thumb/${bound.id}` });
      expect(row.md5).toMatch(/^[0-9a-f]{32}$/);
      expect((await call(app, 'GET', `/api/jobs/slide/${bound.id}?type=slides.ingest`, { token: admin })).json().data).toMatchObject({ status: 'done', progress: 100, attempts: 1 });
      const dzi = await call(app, 'GET', `/api/tiles/${bound.id}.dzi`, { token: admin });
      expect(dzi.statusCode).toBe(200);
      expect(dzi.body).toContain('Width="1500"');
      const thumb = await call(app, 'GET', `/api/data/kfb/thumb/${bound.id}`, { token: admin });
      expect(thumb.statusCode).toBe(200);
      const { width } = await sharp(thumb.rawPayload).metadata();
      expect(width).toBeGreaterThan(0);
      expect(width).toBeLessThanOrEqual(512);
    } finally {
      await runner.stop();
    }
  });

  it('a file the readers cannot make sense of ends as an error row once its job is done, serving nothing', async () => {
    const dir = path.join(dataDir, 'uploads', 'complete', 'i2');
    fs.mkdirSync(dir, { recursive: true });
    // A photo that is not one: the converter breaks on it.
    fs.writeFileSync(path.join(dir, 'broken.png'), Buffer.from('not a png'));
    const res = await call(app, 'POST', '/api/data/kfb/bind', { token: admin, payload: { path: 'uploads/complete/i2/broken.png' } });
    expect(res.statusCode, res.body).toBe(200);
    const runner = startJobRunner(h.db, { types: jobTypesFor({ dataDir, jobLeaseMs: 30_000 }), log: { info() {}, warn() {}, error() {} }, pollMs: 50 });
    try {
      const row = await ingested(app, admin, res.json().data.id);
      // A file the readers cannot make sense of keeps its row, marked 'error' (not an orphan on disk), and serves nothing.
      expect(row).toMatchObject({ status: 'error', width: null });
      expect((await call(app, 'GET', `/api/tiles/${row.id}.dzi`, { token: admin })).statusCode).toBe(404);
    } finally {
      await runner.stop();
    }
  });
});

/**
 * Issue 28: one way to register a slide. The demo seed, benchmarks and tests register a file as a bind does
 * (registerSlide: the row 'ingesting' and its ingest job) and run that very job at once (ingestNow), so what they
 * make is what a bind makes: the job done, the slide ready with its thumbnail and its focus check queued.
 */
describe.each(databases)('registering a slide outside a bind [%s]', (kind) => {
  let h: Harness;
  let dataDir: string;

  beforeAll(async () => {
    h = await startApp(kind);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-register-'));
  });
  afterAll(async () => {
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const expectIngested = async (id: number) => {
    expect(await latestJobOfSlide(h.db, id, SLIDE_INGEST)).toMatchObject({ status: 'done', attempts: 1, progress: 100 });
    const row = await h.db.selectFrom('slides').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row, row.name).toMatchObject({ status: 'ready', progress: null });
    expect(row.md5).toMatch(/^[0-9a-f]{32}$/);
    expect(fs.existsSync(thumbPath(dataDir, id)), `${row.name} thumbnail`).toBe(true);
    expect(await latestJobOfSlide(h.db, id, 'slides.focus')).toMatchObject({ status: 'queued' });
    return row;
  };

  it('seeds the demo slides through their ingest jobs: ready, with thumbnails and focus checks', async () => {
    await seedDemoSlides(h.db, dataDir);
    const rows = await h.db.selectFrom('slides').select(['id', 'name']).orderBy('id').execute();
    expect(rows.map((r) => r.name)).toEqual(DEMO_SLIDES.map((s) => s.name));
    for (const { id } of rows) await expectIngested(id);
    const kfb = await h.db.selectFrom('slides').select(['vendor', 'format_note']).where('id', '=', rows[3].id).executeTakeFirstOrThrow();
    expect(kfb).toEqual({ vendor: 'kfbio', format_note: 'kfb_experimental' });
  });

  it('registers a file as a bind does and reads it by the same job, run at once', async () => {
    const file = path.join(dataDir, 'slides', 'own', 'now.tiff');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await generateDemoSlide({ out: file, width: 1200, height: 800, tileSize: 256, mpp: 0.5, seed: 5, slideId: 'NOW-1', label: true });
    const hospital = await h.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow();
    const id = await registerSlide(h.db, dataDir, file, { name: 'NOW-1', hospital_id: hospital.id, case_id: null, uploaded_by: null });
    expect(await h.db.selectFrom('slides').select(['status', 'width']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ status: 'ingesting', width: null });
    expect(await latestJobOfSlide(h.db, id, SLIDE_INGEST)).toMatchObject({ status: 'queued' });
    expect(await ingestNow(h.db, dataDir, id)).toMatchObject({ status: 'done' });
    expect(await expectIngested(id)).toMatchObject({ width: 1200, height: 800, has_label: 1, vendor: 'aperio', file_path: 'slides/own/now.tiff' });
  });
});
