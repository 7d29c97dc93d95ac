import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { latestJobOfSlide } from '../../server/modules/jobs/queries.js';
import type { JobType } from '../../server/modules/jobs/job-type.js';
import { runJobNow } from '../../server/modules/jobs/runner.js';
import { ingestNow } from '../../server/modules/slides/ingest-now.js';
import { LABEL_BIND_JOB, labelBindJob } from '../../server/modules/slides/label-bind-job.js';
import { registerSlide } from '../../server/modules/slides/register.js';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * A slide label as DSMS prints it (server/modules/cases/labels.ts): the glass slide's code as a Code128 barcode with the
 * code in text under its bars (bwip-js), and the number, block-section and stain beside it; as raw RGB for the label image.
 */
async function printedLabel(code: string, lines: string[]): Promise<{ data: Buffer; width: number; height: number }> {
  const { default: bwipjs } = await import('bwip-js/node');
  const bars = await bwipjs.toBuffer({ bcid: 'code128', text: code, scale: 2, height: 12, includetext: true, textxalign: 'center', textsize: 13 });
  const text = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400">${lines.map((l, i) =>
    `<text x="40" y="${250 + i * 52}" font-family="DejaVu Sans Mono, monospace" font-size="40" fill="#161616">${l}</text>`).join('')}</svg>`);
  const { data, info } = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#f7f7f4' } })
    .composite([{ input: bars, top: 30, left: 40 }, { input: text, top: 0, left: 0 }]).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * Issue 31 item 2: a digital slide is bound to the glass slide it is the scan of, not only to the case. The bind dialog
 * offers the working hospital's glass slides not yet scanned (GET data/kfb/bind/choices) and sends the chosen or
 * scanned code (POST data/kfb/move { code }): the glass slide's printed label, else `<number>-<block>-<section>`. The
 * slide then takes the glass slide's case, and the viewer's slide info its block, number and stain; a pathology number
 * binds to the case only. Refusals are translated and change nothing.
 */
describe.each(databases)('binding slides to glass slides [%s]', (kind) => {
  let h: Harness;
  let dataDir: string;
  let technician: string;
  let registrar: string;
  let hospital: number;
  let caseId: number;
  let number: string;
  const slides: number[] = [];
  let glass: { id: number; block_number: string; section_number: number; stain: string; label: string | null }[];

  const move = (payload: object, token = technician, lang = 'en-US') => call(h.app, 'POST', '/api/data/kfb/move', { token, lang, payload });
  const linkOf = async (slideId: number) => (await h.db.selectFrom('slide_sections').select('id').where('slide_id', '=', slideId).execute()).map((r) => r.id);
  const caseOf = async (slideId: number) => (await h.db.selectFrom('slides').select('case_id').where('id', '=', slideId).executeTakeFirstOrThrow()).case_id;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-glass-'));
    h = await startApp(kind, { config: { dataDir } });
    [technician, registrar] = await Promise.all(['technician', 'registrar'].map((u) => tokenFor(h.app, u)));
    hospital = (await h.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const c = await h.db.selectFrom('cases').select(['id', 'pathology_number']).where('hospital_id', '=', hospital).orderBy('id').executeTakeFirstOrThrow();
    caseId = c.id;
    number = c.pathology_number;
    const added = await call(h.app, 'POST', '/api/data/kfb/sectionAdd', { token: technician, payload: {
      case_id: caseId, sections: [
        { block_number: 'G1', section_number: 1 }, { block_number: 'G1', section_number: 2, stain: 'Ki-67' }, { block_number: 'G2', section_number: 1, stain: 'PAS', label: 'LBL-0042' },
        { block_number: 'G3', section_number: 1, stain: 'CD20' },
      ],
    } });
    expect(added.statusCode, added.body).toBe(200);
    glass = added.json().data;
    const now = new Date().toISOString();
    for (const name of ['GB-1.svs', 'GB-2.svs', 'GB-3.svs']) {
      slides.push((await h.db.insertInto('slides').values({
        hospital_id: hospital, case_id: null, name, file_path: `slides/${name}`, file_size: 1, status: 'ready', has_label: 1, has_macro: 0, created_at: now, updated_at: now,
      } as never).returning('id').executeTakeFirstOrThrow()).id);
    }
    // Another hospital's glass slide, with a code of its own: never bindable from this one.
    const other = (await h.db.insertInto('hospitals').values({ name: '外院', en_name: 'Elsewhere', code: 'GB99', logo: null, created_at: now }).returning('id').executeTakeFirstOrThrow()).id;
    const { id: _id, ...copy } = await h.db.selectFrom('cases').selectAll().where('id', '=', caseId).executeTakeFirstOrThrow();
    const theirCase = (await h.db.insertInto('cases').values({ ...copy, hospital_id: other, pathology_number: 'X2026-1', subspecialty_id: null, apply_id: null }).returning('id').executeTakeFirstOrThrow()).id;
    await h.db.insertInto('slide_sections').values({ hospital_id: other, case_id: theirCase, block_number: '1', section_number: 1, stain: 'HE', label: 'THEIRS-1', slide_id: null, created_by: null, created_at: now }).execute();
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('offers the glass slides not yet scanned (with their codes) and the cases; another hospital\'s are not offered', async () => {
    const res = await call(h.app, 'GET', '/api/data/kfb/bind/choices', { token: technician });
    expect(res.statusCode, res.body).toBe(200);
    const { glass_slides: offered, cases } = res.json().data as { glass_slides: { id: number; code: string; stain: string }[]; cases: { pathology_number: string }[] };
    const ours = offered.filter((g) => glass.some((x) => x.id === g.id));
    expect(ours.map((g) => [g.code, g.stain])).toEqual([[`${number}-G1-1`, 'HE'], [`${number}-G1-2`, 'Ki-67'], ['LBL-0042', 'PAS'], [`${number}-G3-1`, 'CD20']]);
    expect(offered.map((g) => g.code)).not.toContain('THEIRS-1');
    expect(cases.map((c) => c.pathology_number)).toContain(number);
    expect(cases.map((c) => c.pathology_number)).not.toContain('X2026-1');
    expect((await call(h.app, 'GET', '/api/data/kfb/bind/choices', { token: registrar })).statusCode).toBe(403);
  });

  it('binds a slide to the glass slide its label code names: case, link, list column and the viewer\'s block, number and stain', async () => {
    const res = await move({ ids: [slides[0]], code: `${number}-G1-2` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ moved: 1, case_id: caseId, section_id: glass[1]!.id });
    expect(await caseOf(slides[0]!)).toBe(caseId);
    expect(await linkOf(slides[0]!)).toEqual([glass[1]!.id]);

    const row = (await call(h.app, 'GET', `/api/data/kfb/item/${slides[0]}`, { token: technician })).json().data;
    expect(row).toMatchObject({ pathology_number: number, glass_slide: 'G1-2 Ki-67' });
    const info = await call(h.app, 'POST', `/api/data/kfb/open/${slides[0]}`, { token: technician });
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json().data).toMatchObject({ pathology_number: number, block_number: 'G1', section_number: 2, stain: 'Ki-67' });

    // A glass slide with a printed label is named by that label (what its barcode carries); a bound one is offered no more.
    const labelled = await move({ ids: [slides[1]], code: 'LBL-0042' });
    expect(labelled.statusCode, labelled.body).toBe(200);
    expect(await linkOf(slides[1]!)).toEqual([glass[2]!.id]);
    const offered = (await call(h.app, 'GET', '/api/data/kfb/bind/choices', { token: technician })).json().data.glass_slides.map((g: { id: number }) => g.id);
    expect(offered).toContain(glass[0]!.id);
    expect(offered).not.toContain(glass[1]!.id);
    expect(offered).not.toContain(glass[2]!.id);

    const log = await h.db.selectFrom('section_logs').select(['action', 'detail']).where('slide_id', '=', slides[0]!).orderBy('id').execute();
    expect(log).toContainEqual({ action: 'move', detail: `${number}-G1-2` });
  });

  it('a slide moved to another glass slide leaves the first; a pathology number binds to the case alone; unbinding frees the glass slide', async () => {
    expect((await move({ ids: [slides[0]], code: `${number}-G1-1` })).statusCode).toBe(200);
    expect(await linkOf(slides[0]!)).toEqual([glass[0]!.id]);

    const byNumber = await move({ ids: [slides[2]], code: number });
    expect(byNumber.statusCode, byNumber.body).toBe(200);
    expect(byNumber.json().data).toMatchObject({ case_id: caseId, section_id: null });
    expect(await caseOf(slides[2]!)).toBe(caseId);
    expect(await linkOf(slides[2]!)).toEqual([]);

    expect((await move({ ids: [slides[0]], pathology_number: null })).statusCode).toBe(200);
    expect(await caseOf(slides[0]!)).toBeNull();
    expect(await linkOf(slides[0]!)).toEqual([]);
  });

  it('refuses, translated and changing nothing: an unknown code, a bound glass slide, several files to one glass slide, another hospital\'s, no target, a registrar', async () => {
    const before = await h.db.selectFrom('slide_sections').select(['id', 'slide_id']).orderBy('id').execute();
    const cases = await h.db.selectFrom('slides').select(['id', 'case_id']).where('id', 'in', slides).orderBy('id').execute();

    const unknown = await move({ ids: [slides[0]], code: 'NOPE-9-9' }, technician, 'zh-CN');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('未找到编号为 NOPE-9-9 的玻片或病例');
    const taken = await move({ ids: [slides[0]], code: 'LBL-0042' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('This section already has a scanned file bound');
    const several = await move({ ids: [slides[0], slides[2]], code: `${number}-G1-1` });
    expect(several.statusCode).toBe(422);
    expect(several.json().message).toBe('A glass slide takes one scanned file: choose one slide only');
    expect((await move({ ids: [slides[0]], code: 'THEIRS-1' })).statusCode).toBe(404);
    const none = await move({ ids: [slides[0]] });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.code).toEqual(['Choose or scan a glass slide, or enter a pathology number']);
    expect((await move({ ids: [slides[0]], code: `${number}-G1-1` }, registrar)).statusCode).toBe(403);

    expect(await h.db.selectFrom('slide_sections').select(['id', 'slide_id']).orderBy('id').execute()).toEqual(before);
    expect(await h.db.selectFrom('slides').select(['id', 'case_id']).where('id', 'in', slides).orderBy('id').execute()).toEqual(cases);
  });

  it('a slide whose label image carries a glass slide\'s barcode and code: "Read label and bind" (outer/ocr) names that glass slide, and binding by it links them', async () => {
    const code = `${number}-G3-1`;
    const file = path.join(dataDir, 'slides', 'labelled-glass.tiff');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await generateDemoSlide({ out: file, width: 512, height: 512, tileSize: 256, mpp: 0.5, seed: 5, labelRgb: await printedLabel(code, [number, 'G3-1', 'CD20']) });
    const slide = await registerSlide(h.db, dataDir, file, { name: 'labelled-glass', hospital_id: hospital, case_id: null, uploaded_by: await userId(h.db, 'technician') });
    await ingestNow(h.db, dataDir, slide);

    const read = await call(h.app, 'POST', '/api/outer/ocr', { token: technician, payload: { slide_id: slide } });
    expect(read.statusCode, read.body).toBe(200);
    const reading = read.json().data;
    // Tesseract reads the lines beside the barcode (the small text among its bars less surely): the code is made of them.
    expect(reading.text).toContain(number);
    expect(reading.text).toContain('G3-1');
    expect(reading.glass_slides).toEqual([{ id: glass[3]!.id, case_id: caseId, code, pathology_number: number, block_number: 'G3', section_number: 1, stain: 'CD20' }]);

    // What the dialog then sends, the suggestion chosen.
    expect((await move({ ids: [slide], code: reading.glass_slides[0].code })).statusCode).toBe(200);
    expect(await linkOf(slide)).toEqual([glass[3]!.id]);
    const info = (await call(h.app, 'POST', `/api/data/kfb/open/${slide}`, { token: technician })).json().data;
    expect(info).toMatchObject({ case_id: caseId, block_number: 'G3', section_number: 1, stain: 'CD20' });
    // Bound, the glass slide is no longer a suggestion for another reading of the same label.
    expect((await call(h.app, 'POST', '/api/outer/ocr', { token: technician, payload: { slide_id: slide } })).json().data.glass_slides).toEqual([]);
  }, 120_000);
  /** A slide uploaded from a file whose label prints `code` as its barcode, ingested, and its label job run as a runner would. */
  const uploadLabelled = async (name: string, code: string) => {
    const file = path.join(dataDir, 'slides', `${name}.tiff`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await generateDemoSlide({ out: file, width: 512, height: 512, tileSize: 256, mpp: 0.5, seed: 7, labelRgb: await printedLabel(code, [code]) });
    const slide = await registerSlide(h.db, dataDir, file, { name, hospital_id: hospital, case_id: null, uploaded_by: await userId(h.db, 'technician') });
    await ingestNow(h.db, dataDir, slide);
    const job = await latestJobOfSlide(h.db, slide, LABEL_BIND_JOB);
    expect(job, 'a ready slide with a label has its label read').toBeDefined();
    const done = await runJobNow(h.db, labelBindJob(dataDir, 30_000) as JobType<unknown>, job!.id);
    expect(done.status, done.error ?? '').toBe('done');
    return slide;
  };

  it('a slide uploaded with a glass slide\'s barcode on its label ends bound to it with no one binding it: case, link, the viewer\'s block, number and stain, a log row of no user', async () => {
    const added = await call(h.app, 'POST', '/api/data/kfb/sectionAdd', { token: technician, payload: { case_id: caseId, sections: [{ block_number: 'G4', section_number: 1, stain: 'Giemsa' }] } });
    expect(added.statusCode, added.body).toBe(200);
    const g4 = added.json().data[0].id as number;
    const slide = await uploadLabelled('auto-bound', `${number}-G4-1`);

    expect(await caseOf(slide)).toBe(caseId);
    expect(await linkOf(slide)).toEqual([g4]);
    const info = await call(h.app, 'POST', `/api/data/kfb/open/${slide}`, { token: technician });
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json().data).toMatchObject({ case_id: caseId, pathology_number: number, block_number: 'G4', section_number: 1, stain: 'Giemsa' });
    const log = await h.db.selectFrom('section_logs').select(['action', 'detail', 'user_id']).where('slide_id', '=', slide).orderBy('id').execute();
    expect(log).toContainEqual({ action: 'move', detail: `label barcode ${number}-G4-1`, user_id: null });
  }, 120_000);

  it('a label barcode naming no glass slide, or another hospital\'s, binds nothing', async () => {
    const before = await h.db.selectFrom('slide_sections').select(['id', 'slide_id']).orderBy('id').execute();
    for (const [name, code] of [['names-nothing', 'NOPE-7-7'], ['names-theirs', 'THEIRS-1']] as const) {
      const slide = await uploadLabelled(name, code);
      expect(await caseOf(slide)).toBeNull();
      expect(await linkOf(slide)).toEqual([]);
      expect(await h.db.selectFrom('section_logs').select('action').where('slide_id', '=', slide).where('action', '=', 'move').execute()).toEqual([]);
    }
    expect(await h.db.selectFrom('slide_sections').select(['id', 'slide_id']).orderBy('id').execute()).toEqual(before);
  }, 180_000);
});
