import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureQcRow } from '../../server/modules/focus/queries.js';
import { call, databases, startApp, testApp, tokenFor, type Harness } from './harness.js';

/**
 * The slide QC list's rows say which slide each grade is for (issue 31 item 8): the slide's name, its case's
 * pathology number and case id (the number links to the case) and its thumbnail URL; the keyword box finds a row by
 * its case's number. A slide being converted has no thumbnail yet; a slide in no case has no number.
 */
describe.each(databases)('slide QC list rows [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let qc: string;
  const ids = { inCase: 0, loose: 0 };
  let number = '';
  let caseId = 0;

  beforeAll(async () => {
    h = await startApp(kind);
    app = await testApp(h.db);
    await app.ready();
    qc = await tokenFor(app, 'qc');
    const hospital = await h.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    // A demo case of the hospital.
    const made = await h.db.selectFrom('cases').select(['id', 'pathology_number']).where('hospital_id', '=', hospital.id).orderBy('id').executeTakeFirstOrThrow();
    caseId = made.id;
    number = made.pathology_number;
    for (const [key, status, inCase] of [['inCase', 'ready', true], ['loose', 'converting', false]] as const) {
      const slide = await h.db.insertInto('slides').values({
        hospital_id: hospital.id, case_id: inCase ? caseId : null, name: `QC-LIST-${key}`, file_path: `slides/qc-${key}.tiff`, file_size: 1, md5: null,
        vendor: 'generic-tiff', width: 1, height: 1, levels: 1, mpp: null, objective_power: null, scan_at: null, tile_size: 256, status,
        has_label: 0, has_macro: 0, format_note: null, progress: null, uploaded_by: null, created_at: now, updated_at: now,
      }).returning('id').executeTakeFirstOrThrow();
      ids[key] = slide.id;
      await ensureQcRow(h.db, slide.id, hospital.id);
    }
  });

  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  const rows = async (query = '') => {
    const res = await call(app, 'GET', `/api/slide/qc/lists?page_size=100${query}`, { token: qc });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.data as Record<string, unknown>[];
  };

  it('carries the slide name, case number and thumbnail', async () => {
    const all = await rows();
    expect(all.find((r) => r.slide_id === ids.inCase)).toMatchObject({
      slide_name: 'QC-LIST-inCase', pathology_number: number, case_id: caseId, thumb_url: `/api/data/kfb/thumb/${ids.inCase}`,
    });
    expect(all.find((r) => r.slide_id === ids.loose)).toMatchObject({ slide_name: 'QC-LIST-loose', pathology_number: null, case_id: null, thumb_url: null });
  });

  it('finds a row by its case\'s pathology number or its slide\'s name', async () => {
    expect((await rows(`&search=${number}`)).map((r) => r.slide_id)).toEqual([ids.inCase]);
    expect((await rows('&search=QC-LIST-loose')).map((r) => r.slide_id)).toEqual([ids.loose]);
  });
});
