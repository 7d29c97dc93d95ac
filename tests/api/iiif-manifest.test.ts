import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { normalize, serialize, serializeConfigPresentation3 } from '@iiif/parser';
import { presentation3StrictUpgrade } from '@iiif/parser/strict';
import { upgrade } from '@iiif/parser/upgrader';
import type { Manifest } from '@iiif/presentation-3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../server/i18n/translate.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { registerSlide } from '../../server/modules/slides/register.js';
import { call, databases, ingested, startApp, testApp, tokenFor, type Harness } from './harness.js';

/**
 * Issue 30: a case as a IIIF Presentation 3 manifest, its slides as canvases painted with their IIIF image services,
 * labelled in both languages, under the case's own rules: case_view and slide_view, and another hospital's case
 * answers as if it did not exist. The manifest is checked by @iiif/parser (its strict upgrade reports every
 * deviation from the specification it repairs; normalising it walks every resource) and against the answers of
 * the image services it names.
 */
const PUBLIC = 'https://dsms.example-hospital.org';
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-manifest-'));
  fs.mkdirSync(path.join(dir, 'slides'), { recursive: true });
  await generateDemoSlide({ out: path.join(dir, 'slides', 'm-a.tiff'), width: 1500, height: 1000, tileSize: 256, mpp: 0.25, seed: 31, slideId: 'M-A' });
  await generateDemoSlide({ out: path.join(dir, 'slides', 'm-b.tiff'), width: 900, height: 1200, tileSize: 256, mpp: 0.5, seed: 32, slideId: 'M-B' });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.each(databases)('IIIF case manifest [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  const t: Record<string, string> = {};
  let caseId: number;
  let emptyCaseId: number;
  let otherCaseId: number;
  /** Slide A (bound to glass slide A2-1, HE) and slide B (no glass slide), in the order the manifest lists them. */
  const slides: number[] = [];

  beforeAll(async () => {
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir: dir, publicUrl: PUBLIC });
    await app.ready();
    for (const u of ['admin', 'primary', 'clinician', 'registrar']) t[u] = await tokenFor(app, u);
    const hospitals = await h.db.selectFrom('hospitals').select('id').orderBy('id').execute();
    const caseOf = async (hospital: number, number: string) =>
      (await h.db.selectFrom('cases').select('id').where('hospital_id', '=', hospital).where('pathology_number', '=', number).executeTakeFirstOrThrow()).id;
    caseId = await caseOf(hospitals[0].id, 'P2026-00001');
    emptyCaseId = await caseOf(hospitals[0].id, 'P2026-00003');
    // A case of a hospital none of the demo users belongs to.
    const now = new Date().toISOString();
    const elsewhere = (await h.db.insertInto('hospitals').values({ code: 'HMANI', name: '别院', en_name: 'Elsewhere', logo: null, created_at: now }).returning('id').executeTakeFirstOrThrow()).id;
    const { id: _id, ...model } = await h.db.selectFrom('cases').selectAll().where('id', '=', caseId).executeTakeFirstOrThrow();
    otherCaseId = (await h.db.insertInto('cases').values({ ...model, hospital_id: elsewhere, pathology_number: 'MANI-0001', apply_id: null }).returning('id').executeTakeFirstOrThrow()).id;
    // B first, so the manifest's order (glass slides first) is not the order of ids.
    for (const name of ['m-b', 'm-a']) {
      const id = await registerSlide(h.db, dir, path.join(dir, 'slides', `${name}.tiff`), { name: name.toUpperCase(), hospital_id: hospitals[0].id, case_id: caseId, uploaded_by: null });
      expect((await ingested(app, t.admin, id)).status).toBe('ready');
      slides.unshift(id);
    }
    await h.db.insertInto('slide_sections').values({
      hospital_id: hospitals[0].id, case_id: caseId, block_number: 'A2', section_number: 1, stain: 'HE', label: null, slide_id: slides[0], created_by: null, created_at: new Date().toISOString(),
    }).execute();
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  const url = (id: number) => `/api/iiif/cases/${id}/manifest`;

  it('describes the case with a canvas per slide, in both languages, that @iiif/parser reads without a warning', async () => {
    const res = await call(app, 'GET', url(caseId), { token: t.primary });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/ld\+json; ?profile="http:\/\/iiif.io\/api\/presentation\/3\/context.json"/);
    const manifest = res.json() as Manifest;
    expect(manifest).toMatchObject({ '@context': 'http://iiif.io/api/presentation/3/context.json', type: 'Manifest', id: `${PUBLIC}${url(caseId)}` });
    expect(manifest.label).toEqual({ 'zh-CN': ['病例 P2026-00001'], 'en-US': ['Case P2026-00001'] });

    const state = { warnings: [] as string[] };
    const strict = presentation3StrictUpgrade(structuredClone(manifest), state);
    expect(state.warnings).toEqual([]);
    expect(strict).toEqual(manifest);
    // A Presentation 3 document is taken as it is by the upgrader; normalising walks every resource in it, and
    // serialising the normalised store again gives the manifest back.
    expect(upgrade(structuredClone(manifest))).toMatchObject({ id: manifest.id, type: 'Manifest' });
    const normalized = normalize(structuredClone(manifest));
    const again = serialize<Manifest>({ mapping: normalized.mapping, entities: normalized.entities, requests: {} }, normalized.resource, serializeConfigPresentation3);
    expect(again).toMatchObject({ id: manifest.id, label: manifest.label, items: manifest.items.map((c) => ({ id: c.id, width: c.width, height: c.height, label: c.label })) });
    expect(Object.keys(normalized.entities.Canvas)).toHaveLength(2);
    expect(Object.keys(normalized.entities.Annotation)).toHaveLength(2);
    expect(Object.keys(normalized.entities.ContentResource).length).toBeGreaterThanOrEqual(2);

    const canvases = manifest.items;
    expect(canvases.map((c) => c.id)).toEqual(slides.map((s) => `${PUBLIC}/api/iiif/cases/${caseId}/canvas/${s}`));
    expect(canvases[0].label).toEqual({ 'zh-CN': ['蜡块 A2 第 1 片 HE'], 'en-US': ['Block A2, section 1, HE'] });
    expect(canvases[1].label).toEqual({ 'zh-CN': ['切片 M-B'], 'en-US': ['Slide M-B'] });
    for (const [i, canvas] of canvases.entries()) {
      for (const map of [canvas.label!, ...canvas.metadata!.map((m) => m.label)]) expect(Object.keys(map).sort(), 'labels in both languages').toEqual(['en-US', 'zh-CN']);
      const annotation = canvas.items![0].items![0];
      expect(annotation).toMatchObject({ type: 'Annotation', motivation: 'painting', target: canvas.id });
      const body = annotation.body as { id: string; width: number; height: number; service: { id: string; type: string; profile: string }[] };
      const service = body.service[0];
      expect(service).toEqual({ id: `${PUBLIC}/api/iiif/${slides[i]}`, type: 'ImageService3', profile: 'level2' });
      // The service it names is there, says it is that service, and is the canvas's size; the body's size is what full/max answers.
      const info = (await call(app, 'GET', `${service.id.slice(PUBLIC.length)}/info.json`, { token: t.primary })).json();
      expect([info.id, info.width, info.height]).toEqual([service.id, canvas.width, canvas.height]);
      const image = await call(app, 'GET', body.id.slice(PUBLIC.length), { token: t.primary });
      expect(image.statusCode).toBe(200);
      const { default: sharp } = await import('sharp');
      const meta = await sharp(image.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([body.width, body.height]);
    }
    expect([canvases[0].width, canvases[0].height, canvases[1].width, canvases[1].height]).toEqual([1500, 1000, 900, 1200]);
  });

  it('answers another hospital\'s case, or an unknown one, as if it did not exist, and a case without slides with a 404 that says so', async () => {
    for (const id of [otherCaseId, 99_999_999]) {
      const res = await call(app, 'GET', url(id), { token: t.primary, lang: 'en-US' });
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json(), String(id)).toEqual({ message: translate('en-US', 'iiif.case_not_found') });
    }
    const empty = await call(app, 'GET', url(emptyCaseId), { token: t.primary, lang: 'en-US' });
    expect([empty.statusCode, empty.json()]).toEqual([404, { message: translate('en-US', 'iiif.case_without_slides') }]);
    expect((await call(app, 'GET', '/api/iiif/cases/0/manifest', { token: t.primary })).statusCode).toBe(422);
  });

  it('needs a session (bearer or image cookie), case_view and slide_view', async () => {
    expect((await call(app, 'GET', url(caseId), { lang: 'en-US' })).statusCode).toBe(401);
    expect((await call(app, 'GET', url(caseId), { headers: { cookie: `dsms_image=${t.primary}` } })).statusCode).toBe(200);
    // A clinician sees slides but not cases; a registrar cases but not slides.
    const clinician = await call(app, 'GET', url(caseId), { token: t.clinician, lang: 'en-US' });
    expect([clinician.statusCode, clinician.json()]).toEqual([403, { message: translate('en-US', 'error.forbidden', { permission: 'case_view' }) }]);
    expect((await call(app, 'GET', url(caseId), { token: t.registrar })).statusCode).toBe(403);
  });
});
