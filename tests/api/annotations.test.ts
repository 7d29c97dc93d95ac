import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANNOTATION_VERTICES, MIN_ANNOTATION_SIZE_PX } from '../../src/core/annotationGeometry.js';
import { annotationMessages } from '../../server/modules/annotations/messages.js';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

const BASE = '/api/slide/annotations';

/**
 * Slide annotations (issue 11): who sees and changes them, the slide's hospital, the spec's minimum size and
 * the limits, the measurement the server stores from the slide's mpp, and concurrent edits.
 */
describe.each(databases)('slide annotations [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let primary: string;
  let auditor: string;
  let technician: string;
  let admin: string;
  let slide: number;
  let foreign: number;

  const insertSlide = async (hospitalId: number, name: string) => {
    const now = new Date().toISOString();
    const row = await h.db.insertInto('slides').values({
      hospital_id: hospitalId, case_id: null, name, file_path: `slides/x/${name}.tiff`, file_size: 0, md5: null, vendor: 'generic',
      width: 10_000, height: 8_000, levels: 6, mpp: 0.25, objective_power: 40, scan_at: null, tile_size: 256, status: 'ready', has_label: 0, has_macro: 0,
      format_note: null, uploaded_by: null, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    return row.id;
  };
  const draw = (token: string, payload: object, lang?: string, id = slide) => call(app, 'POST', `${BASE}/${id}`, { token, payload, lang });

  beforeAll(async () => {
    h = await startApp(kind);
    app = h.app;
    [primary, auditor, technician, admin] = await Promise.all(['primary', 'auditor', 'technician', 'admin'].map((u) => tokenFor(app, u)));
    const first = await h.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow();
    slide = await insertSlide(first.id, 'ANN-1');
    const other = await h.db.insertInto('hospitals').values({ code: 'H009', name: '外院', en_name: 'Outside Hospital', logo: null, created_at: new Date().toISOString() }).returning('id').executeTakeFirstOrThrow();
    foreign = await insertSlide(other.id, 'ANN-FOREIGN');
  });
  afterAll(async () => h?.close());

  it('stores a rectangle, polygon and ruler with the measurement computed from mpp, and lists them', async () => {
    const rect = await draw(primary, { type: 'rectangle', points: [[100, 100], [500, 300]], name: 'Tumour', color: '#00ff00' });
    expect(rect.statusCode, rect.body).toBe(200);
    expect(rect.json().data).toMatchObject({ type: 'rectangle', name: 'Tumour', color: '#00ff00', area_um2: 400 * 200 * 0.0625, perimeter_um: 1200 * 0.25, length_um: null, version: 1 });
    // A client's own numbers are not accepted: only the shape is sent.
    const ruler = await draw(primary, { type: 'ruler', points: [[0, 0], [3000, 4000]] });
    expect(ruler.json().data.length_um).toBe(1250);
    const poly = await draw(primary, { type: 'polygon', points: [[0, 0], [400, 0], [400, 400]], description: 'x' });
    expect(poly.json().data.area_um2).toBe(80_000 * 0.0625);
    const list = await call(app, 'GET', `${BASE}/${slide}`, { token: auditor });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((a: { type: string }) => a.type)).toEqual(['rectangle', 'ruler', 'polygon']);
    expect(list.json().data[0].points).toEqual([[100, 100], [500, 300]]);
  });

  it('answers another hospital\'s slide as not found, for reading and drawing', async () => {
    expect((await call(app, 'GET', `${BASE}/${foreign}`, { token: primary })).statusCode).toBe(404);
    expect((await draw(admin, { type: 'point', points: [[1, 1]] }, undefined, foreign)).statusCode).toBe(404);
  });

  it('refuses a role without slide_annotation_view', async () => {
    const res = await call(app, 'GET', `${BASE}/${slide}`, { token: technician, lang: 'en-US' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('slide_annotation_view');
    expect((await draw(technician, { type: 'point', points: [[1, 1]] })).statusCode).toBe(403);
  });

  it('lets only the author or an administrator change or delete an annotation', async () => {
    const mine = (await draw(primary, { type: 'point', points: [[50, 50]], name: 'mine' })).json().data;
    const other = await call(app, 'PATCH', `${BASE}/item/${mine.id}`, { token: auditor, payload: { version: 1, name: 'taken' }, lang: 'en-US' });
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe(annotationMessages['annotation.not_yours']['en-US']);
    expect((await call(app, 'DELETE', `${BASE}/item/${mine.id}`, { token: auditor })).statusCode).toBe(403);
    const byAdmin = await call(app, 'PATCH', `${BASE}/item/${mine.id}`, { token: admin, payload: { version: 1, name: 'checked' } });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(byAdmin.json().data).toMatchObject({ name: 'checked', version: 2 });
    const byAuthor = await call(app, 'PATCH', `${BASE}/item/${mine.id}`, { token: primary, payload: { version: 2, points: [[60, 60]] } });
    expect(byAuthor.json().data.points).toEqual([[60, 60]]);
    expect((await call(app, 'DELETE', `${BASE}/item/${mine.id}`, { token: primary })).statusCode).toBe(200);
    expect((await call(app, 'DELETE', `${BASE}/item/${mine.id}`, { token: primary })).statusCode).toBe(404);
  });

  it('tells the second of two concurrent edits that the annotation changed (409), losing neither silently', async () => {
    const a = (await draw(primary, { type: 'rectangle', points: [[0, 0], [100, 100]] })).json().data;
    const [one, two] = await Promise.all([
      call(app, 'PATCH', `${BASE}/item/${a.id}`, { token: primary, payload: { version: 1, name: 'one' }, lang: 'en-US' }),
      call(app, 'PATCH', `${BASE}/item/${a.id}`, { token: primary, payload: { version: 1, name: 'two' }, lang: 'en-US' }),
    ]);
    expect([one.statusCode, two.statusCode].sort()).toEqual([200, 409]);
    const loser = one.statusCode === 409 ? one : two;
    expect(loser.json().message).toBe(annotationMessages['annotation.changed']['en-US']);
  });

  it.each(['zh-CN', 'en-US'] as const)('refuses a shape under the spec\'s minimum size, in words (%s)', async (lang) => {
    const res = await draw(primary, { type: 'rectangle', points: [[0, 0], [MIN_ANNOTATION_SIZE_PX - 1, 300]] }, lang);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(annotationMessages['annotation.too_small'][lang].replace('{{min}}', String(MIN_ANNOTATION_SIZE_PX)));
    const shortRuler = await draw(primary, { type: 'ruler', points: [[0, 0], [2, 2]] }, lang);
    expect(shortRuler.statusCode).toBe(422);
  });

  it('refuses too many vertices, a shape off the slide, the wrong vertex count, long texts and bad colours', async () => {
    const many = Array.from({ length: MAX_ANNOTATION_VERTICES + 1 }, (_, i) => [i % 5000, Math.floor(i / 5000) * 100]);
    const tooMany = await draw(primary, { type: 'freehand', points: many }, 'en-US');
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().message).toBe(annotationMessages['annotation.too_many_vertices']['en-US'].replace('{{count}}', String(many.length)).replace('{{max}}', String(MAX_ANNOTATION_VERTICES)));
    expect((await draw(primary, { type: 'rectangle', points: [[0, 0], [50_000, 50]] })).statusCode).toBe(422);
    expect((await draw(primary, { type: 'rectangle', points: [[0, 0], [50, 50], [9, 9]] })).statusCode).toBe(422);
    expect((await draw(primary, { type: 'point', points: [[1, 1]], name: 'n'.repeat(101) })).statusCode).toBe(422);
    expect((await draw(primary, { type: 'point', points: [[1, 1]], color: 'red' })).statusCode).toBe(422);
    expect((await draw(primary, { type: 'hexagon', points: [[1, 1]] })).statusCode).toBe(422);
    expect((await draw(primary, { type: 'point', points: [[1, 1]], user_id: 1 })).statusCode).toBe(422);
  });

  it('imports many at once, all or none', async () => {
    const before = (await call(app, 'GET', `${BASE}/${slide}`, { token: primary })).json().data.length;
    const good = [{ type: 'polygon', points: [[0, 0], [90, 0], [90, 90]], classification: 'Tumor' }, { type: 'point', points: [[5, 5]] }];
    const bad = await call(app, 'POST', `${BASE}/${slide}/import`, { token: primary, payload: { annotations: [...good, { type: 'ruler', points: [[0, 0], [1, 1]] }] } });
    expect(bad.statusCode).toBe(422);
    expect((await call(app, 'GET', `${BASE}/${slide}`, { token: primary })).json().data.length).toBe(before);
    const res = await call(app, 'POST', `${BASE}/${slide}/import`, { token: primary, payload: { annotations: good } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toHaveLength(2);
    expect(res.json().data[0].classification).toBe('Tumor');
  });

  it('opening a slide in the viewer answers its information and logs the view (section log)', async () => {
    const res = await call(app, 'POST', `/api/data/kfb/open/${slide}`, { token: technician });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: slide, name: 'ANN-1', width: 10_000, height: 8_000, mpp: 0.25, objective_power: 40, pathology_number: null, stain: null });
    expect(res.json().data.file_path).toBeUndefined();
    const log = await h.db.selectFrom('section_logs').selectAll().where('slide_id', '=', slide).where('action', '=', 'view').execute();
    expect(log).toHaveLength(1);
    expect(log[0]!.username).toBe('technician');
    expect((await call(app, 'POST', `/api/data/kfb/open/${foreign}`, { token: admin })).statusCode).toBe(404);
    const registrar = await tokenFor(app, 'registrar');
    expect((await call(app, 'POST', `/api/data/kfb/open/${slide}`, { token: registrar })).statusCode).toBe(403);
  });

  it('logs every write in the operation log', async () => {
    const rows = await h.db.selectFrom('operation_logs').select(['route', 'status_code']).where('route', 'like', '/api/slide/annotations%').execute();
    expect(rows.some((r) => r.route === '/api/slide/annotations/:slideId' && r.status_code === 200)).toBe(true);
    expect(rows.some((r) => r.route === '/api/slide/annotations/item/:id' && r.status_code === 403)).toBe(true);
  });
});
