import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBlurredByte } from '../../src/core/focus.js';
import { jobTypesFor } from '../../server/modules/job-types.js';
import { startJobRunner, type JobRunner } from '../../server/modules/jobs/runner.js';
import { ingestNow } from '../../server/modules/slides/ingest-now.js';
import { registerSlide } from '../../server/modules/slides/register.js';
import { slidesRoot } from '../../server/modules/slides/paths.js';
import { call, databases, startApp, testApp, tokenFor, type Harness } from './harness.js';
import { FOCUS_W, sharpAndBlurred } from './focus-slides.js';

const CACHE = path.join(os.tmpdir(), 'dsms-focus-slides');

/**
 * The automatic focus check end to end: a demo slide and a copy with its left half out of focus (2 µm gaussian) are
 * registered, the job queue checks both, and the blurred copy ranks below the original (a larger share of tissue out
 * of focus), its left-half cells are marked out of focus and its right-half cells are not; QC is told "blurry".
 */
describe.each(databases)('automatic focus check [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;
  let runner: JobRunner;
  let technician: string;
  const ids = { sharp: 0, blurred: 0 };

  beforeAll(async () => {
    h = await startApp(kind);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-focus-'));
    app = await testApp(h.db, { dataDir });
    await app.ready();
    technician = await tokenFor(app, 'technician');
    const made = await sharpAndBlurred(CACHE);
    const hospital = await h.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow();
    for (const which of ['sharp', 'blurred'] as const) {
      const file = path.join(slidesRoot(dataDir), `${which}.tiff`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.copyFileSync(made[which], file);
      ids[which] = await registerSlide(h.db, dataDir, file, { name: which, hospital_id: hospital.id, case_id: null, uploaded_by: null });
      await ingestNow(h.db, dataDir, ids[which]);
    }
    runner = startJobRunner(h.db, { types: jobTypesFor({ dataDir, jobLeaseMs: 30_000 }), log: { info() {}, warn() {}, error() {} }, pollMs: 100 });
    for (let i = 0; i < 600; i++) {
      const done = await h.db.selectFrom('slide_focus').select('slide_id').where('slide_id', 'in', [ids.sharp, ids.blurred]).execute();
      if (done.length === 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 120_000);

  afterAll(async () => {
    await runner?.stop();
    await app?.close();
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const focus = async (id: number, token = technician) => call(app, 'GET', `/api/data/kfb/${id}/focus`, { token });

  it('ranks the blurred copy below its original and marks the blurred half', async () => {
    const a = (await focus(ids.sharp)).json().data;
    const b = (await focus(ids.blurred)).json().data;
    expect(a.tissue_cells).toBeGreaterThan(100);
    expect(a.blur_share).toBeLessThan(0.05);
    expect(b.blur_share).toBeGreaterThan(a.blur_share + 0.3);
    const map: Buffer = Buffer.from(b.map, 'base64');
    expect(map.length).toBe(b.cols * b.rows);
    let left = 0, leftBlurred = 0, right = 0, rightBlurred = 0;
    for (let r = 0; r < b.rows; r++) {
      for (let c = 0; c < b.cols; c++) {
        const v = map[r * b.cols + c];
        if (v === 0) continue;
        const x0 = c * b.cell_width, x1 = x0 + b.cell_width;
        // Cells touching the boundary see both halves (and the blur's edge): left out.
        if (x1 <= FOCUS_W / 2 - b.cell_width) {
          left++;
          if (isBlurredByte(v)) leftBlurred++;
        } else if (x0 >= FOCUS_W / 2 + b.cell_width) {
          right++;
          if (isBlurredByte(v)) rightBlurred++;
        }
      }
    }
    expect(left).toBeGreaterThan(20);
    expect(leftBlurred / left).toBeGreaterThan(0.95);
    expect(rightBlurred / right).toBeLessThan(0.05);
  });

  it('suggests "blurry image" to QC for the blurred copy only, and QC lists it first', async () => {
    const rows = await h.db.selectFrom('slide_qc').select(['slide_id', 'blur_share', 'suggested_reasons', 'focus_status'])
      .where('slide_id', 'in', [ids.sharp, ids.blurred]).orderBy('blur_share', 'desc').execute();
    expect(rows.map((r) => r.slide_id)).toEqual([ids.blurred, ids.sharp]);
    expect(rows.map((r) => r.suggested_reasons)).toEqual(['blurry', null]);
    expect(rows.every((r) => r.focus_status === 'done')).toBe(true);
  });

  it('serves the map only to users who may view the slide', async () => {
    expect((await focus(ids.sharp, await tokenFor(app, 'registrar'))).statusCode).toBe(403);
    expect((await call(app, 'GET', `/api/data/kfb/${ids.sharp}/focus`)).statusCode).toBe(401);
    expect((await focus(999999)).statusCode).toBe(404);
  });
});
