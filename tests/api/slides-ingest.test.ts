import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobTypesFor } from '../../server/modules/jobs/registry.js';
import { startJobRunner } from '../../server/modules/jobs/runner.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
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
