import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { jobTypesFor } from '../../../server/modules/job-types.js';
import { startJobRunner, type JobRunner } from '../../../server/modules/jobs/runner.js';
import { call, ingested, startApp, testApp, tokenFor, type Harness } from '../harness.js';

/** A slide row as the API answers it (checked with toMatchObject). */
export type Row = Record<string, any>;

export interface FormatsSuite {
  app: FastifyInstance;
  dataDir: string;
  admin: string;
  get(url: string): ReturnType<typeof call>;
  /** Copies a template to where a finished upload leaves its file and binds it; answers the row once its ingest job ended. */
  bind(template: string, as?: string): Promise<Row>;
  /** A slide bound as 'converting', once its conversion job has made it ready: the row as the API answers it then. */
  converted(row: Row): Promise<Row>;
  /** A Deep Zoom tile's bytes (200 expected). */
  dziTile(id: number, level: number, col: number, row: number): Promise<Buffer>;
}

/**
 * The app of one database with a data folder and a job runner (conversions run), signed in as the administrator,
 * for the describe block that calls it: started before its tests, stopped after them.
 */
export function formatsSuite(kind: string): FormatsSuite {
  let h: Harness;
  let runner: JobRunner;
  const s: FormatsSuite = {
    app: undefined as unknown as FastifyInstance,
    dataDir: '',
    admin: '',
    get: (url) => call(s.app, 'GET', url, { token: s.admin }),
    async bind(template, as = path.basename(template)) {
      const id = `u${Math.random().toString(36).slice(2, 10)}`;
      const dir = path.join(s.dataDir, 'uploads', 'complete', id);
      fs.mkdirSync(dir, { recursive: true });
      fs.cpSync(template, path.join(dir, as), { recursive: true });
      const res = await call(s.app, 'POST', '/api/data/kfb/bind', { token: s.admin, payload: { path: `uploads/complete/${id}/${as}` } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ status: 'ingesting' });
      return ingested(s.app, s.admin, res.json().data.id);
    },
    async converted(row) {
      // A small file's conversion may be over by the time its ingest is (the runner wakes on the queued job).
      expect(['converting', 'ready']).toContain(row.status);
      const end = Date.now() + 120_000;
      for (;;) {
        const now = (await s.get(`/api/data/kfb/item/${row.id}`)).json().data;
        if (now.status !== 'converting') {
          // Made by a conversion job, not served as it came.
          const job = (await s.get(`/api/jobs/slide/${row.id}?type=slides.convert`)).json().data;
          expect(job, `slide ${row.id} has no conversion job`).toMatchObject({ type: 'slides.convert' });
          return now as Row;
        }
        if (Date.now() > end) throw new Error(`slide ${row.id} still converting: ${(await s.get(`/api/jobs/slide/${row.id}`)).body}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async dziTile(id, level, col, row) {
      const res = await s.get(`/api/tiles/${id}_files/${level}/${col}_${row}.jpeg`);
      expect(res.statusCode, `tile ${level}/${col}_${row}`).toBe(200);
      return res.rawPayload;
    },
  };

  beforeAll(async () => {
    s.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-formats-'));
    h = await startApp(kind);
    s.app = await testApp(h.db, { dataDir: s.dataDir });
    await s.app.ready();
    s.admin = await tokenFor(s.app, 'admin');
    runner = startJobRunner(h.db, { types: jobTypesFor({ dataDir: s.dataDir, jobLeaseMs: 30_000 }), log: { info() {}, warn() {}, error() {} }, pollMs: 50 });
  });
  afterAll(async () => {
    await runner.stop();
    await s.app.close();
    await h.close();
    fs.rmSync(s.dataDir, { recursive: true, force: true });
  });
  return s;
}
