import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSectionKey } from '../../server/modules/slides/viewer-locate.js';
import { call, databases, startApp, testApp, tokenFor, type Harness } from './harness.js';

/** Spec §2 /kfb/path and /kfb/section/:id/:section: the viewer finds a slide by its file or by a case's glass slide. */
describe.each(databases)('viewer: a slide by path or by section [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let primary: string;
  let registrar: string;
  let technician: string;
  const ids = { home: 0, other: 0 };
  let caseId = 0;
  let otherCase = 0;

  beforeAll(async () => {
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir: '/nonexistent-data' });
    await app.ready();
    [primary, registrar, technician] = await Promise.all(['primary', 'registrar', 'technician'].map((u) => tokenFor(app, u)));
    const [home, other] = await h.db.selectFrom('hospitals').select('id').orderBy('id').execute();
    caseId = (await h.db.selectFrom('cases').select('id').where('hospital_id', '=', home!.id).orderBy('id').executeTakeFirstOrThrow()).id;
    const now = new Date().toISOString();
    const slide = (hospital: number, file: string, kase: number | null) => h.db.insertInto('slides').values({
      hospital_id: hospital, case_id: kase, name: file, file_path: file, file_size: 1, md5: null, vendor: 'generic-tiff', width: 100, height: 100,
      levels: 1, mpp: 0.25, objective_power: 40, scan_at: null, tile_size: 256, status: 'ready', has_label: 0, has_macro: 0, format_note: null,
      progress: null, uploaded_by: null, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow().then((r) => r.id);
    ids.home = await slide(home!.id, 'slides/2026/11/LOC-1.tiff', caseId);
    // A second hospital's case and slide: the technician works only in the first.
    otherCase = (await h.db.selectFrom('cases').select('id').where('hospital_id', '=', other!.id).orderBy('id').executeTakeFirstOrThrow()).id;
    ids.other = await slide(other!.id, 'slides/2026/11/LOC-2.tiff', otherCase);
    await h.db.insertInto('slide_sections').values([
      { hospital_id: home!.id, case_id: caseId, block_number: 'A1', section_number: 2, stain: 'HE', label: null, slide_id: ids.home, created_by: null, created_at: now },
      { hospital_id: home!.id, case_id: caseId, block_number: 'A1', section_number: 3, stain: 'HE', label: null, slide_id: null, created_by: null, created_at: now },
      { hospital_id: other!.id, case_id: otherCase, block_number: '1', section_number: 1, stain: 'HE', label: null, slide_id: ids.other, created_by: null, created_at: now },
    ]).execute();
  });
  afterAll(async () => {
    await app.close();
    await h.close();
  });

  const byPath = (p: string, token = technician) => call(app, 'GET', `/api/data/kfb/locate/path?path=${encodeURIComponent(p)}`, { token, lang: 'en-US' });
  const bySection = (c: number, s: string, token = technician) => call(app, 'GET', `/api/data/kfb/locate/section/${c}/${encodeURIComponent(s)}`, { token, lang: 'en-US' });

  it('finds a slide by its stored path, however the path is spelt', async () => {
    for (const p of ['slides/2026/11/LOC-1.tiff', '/slides/2026/11/LOC-1.tiff', 'slides\\2026\\11\\LOC-1.tiff', 'slides/2026/./11/LOC-1.tiff']) {
      const res = await byPath(p);
      expect(res.statusCode, `${p}: ${res.body}`).toBe(200);
      expect(res.json().data).toEqual({ id: ids.home });
    }
  });

  it('refuses a path outside the data dir (422, translated), and a missing or other-hospital file is not found', async () => {
    const out = await byPath('../etc/passwd');
    expect(out.statusCode).toBe(422);
    expect(out.json().message).toBe('Not a slide path: ../etc/passwd');
    expect((await byPath('slides/2026/11/none.tiff')).statusCode).toBe(404);
    expect((await byPath('slides/2026/11/LOC-2.tiff')).statusCode).toBe(404);
    expect((await byPath('x'.repeat(1100))).statusCode).toBe(422);
  });

  it('finds a case\'s glass slide by block-section or section id; an unscanned or other-hospital section is not found', async () => {
    expect((await bySection(caseId, 'A1-2')).json().data).toEqual({ id: ids.home });
    const section = await h.db.selectFrom('slide_sections').select('id').where('slide_id', '=', ids.home).executeTakeFirstOrThrow();
    expect((await bySection(caseId, String(section.id))).json().data).toEqual({ id: ids.home });
    const unscanned = await bySection(caseId, 'A1-3');
    expect(unscanned.statusCode).toBe(404);
    expect(unscanned.json().message).toBe('This case has no scan of that section');
    expect((await bySection(otherCase, '1-1')).statusCode).toBe(404);
    const bad = await bySection(caseId, 'A1');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toContain('block-section');
  });

  it('needs slide_view; a doctor working in both hospitals reaches the other one only while working there', async () => {
    expect((await byPath('slides/2026/11/LOC-1.tiff', registrar)).statusCode).toBe(403);
    expect((await bySection(caseId, 'A1-2', registrar)).statusCode).toBe(403);
    expect((await byPath('slides/2026/11/LOC-1.tiff', primary)).statusCode).toBe(200);
    expect((await byPath('slides/2026/11/LOC-2.tiff', primary)).statusCode).toBe(404);
  });

  it('reads block-section keys as printed on the glass', () => {
    expect(parseSectionKey('A1-2')).toEqual({ block: 'A1', section: 2 });
    expect(parseSectionKey('2-B-10')).toEqual({ block: '2-B', section: 10 });
    expect(parseSectionKey('17')).toEqual({ id: 17 });
    expect(parseSectionKey('A1')).toBeNull();
  });
});
