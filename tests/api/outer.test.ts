import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/connect.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { ingestNow } from '../../server/modules/slides/ingest-now.js';
import { registerSlide } from '../../server/modules/slides/register.js';
import { call, databases, startApp, testApp, tokenFor, userId, type Harness } from './harness.js';
import { startTeachingLibraryDouble } from './teaching-library-double.js';

const PUBLIC_URL = 'http://dsms.test';
const NUMBER = 'P2026-90042';
const TOKEN = 'teaching-library-token-0123456789';

/** A label as a scanner photographs it, with text we know: the words and the pathology number, drawn by sharp (librsvg). */
async function labelWithText(): Promise<{ data: Buffer; width: number; height: number }> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><rect width="600" height="400" fill="#f7f7f4"/>
    <text x="30" y="140" font-family="Noto Sans CJK SC, sans-serif" font-size="56" fill="#161616">病理号</text>
    <text x="30" y="260" font-family="DejaVu Sans Mono, monospace" font-size="56" fill="#161616">${NUMBER}</text></svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

let templates: string;
let labelled: string;
let unlabelled: string;
beforeAll(async () => {
  templates = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-outer-tpl-'));
  labelled = path.join(templates, 'labelled.tiff');
  unlabelled = path.join(templates, 'unlabelled.tiff');
  const base = { width: 512, height: 512, tileSize: 256, mpp: 0.5, seed: 3 };
  await generateDemoSlide({ ...base, out: labelled, labelRgb: await labelWithText() });
  await generateDemoSlide({ ...base, out: unlabelled, label: false });
});
afterAll(() => fs.rmSync(templates, { recursive: true, force: true }));

describe.each(databases)('outer/ocr and the teaching library (outer/jiaopei) [%s]', (kind) => {
  let app: FastifyInstance;
  let db: Db;
  let h: Harness;
  let dataDir: string;
  let hospitals: number[];
  let admin: string;
  let primary: string;
  let caseId: number;
  let slide: number;
  let bare: number;
  let foreign: number;
  let library: Awaited<ReturnType<typeof startTeachingLibraryDouble>>;

  const place = async (template: string, name: string, hospitalId: number, caseOf: number | null) => {
    const file = path.join(dataDir, 'slides', `${name}.tiff`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.copyFileSync(template, file);
    const id = await registerSlide(db, dataDir, file, { name, hospital_id: hospitalId, case_id: caseOf, uploaded_by: await userId(db, 'admin') });
    await ingestNow(db, dataDir, id);
    return id;
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-outer-'));
    h = await startApp(kind, { config: { dataDir, publicUrl: PUBLIC_URL } });
    ({ app, db } = h);
    hospitals = (await db.selectFrom('hospitals').select('id').orderBy('id').execute()).map((r) => r.id);
    admin = await tokenFor(app, 'admin');
    primary = await tokenFor(app, 'primary');
    const created = await call(app, 'POST', '/api/pathology/store', { token: admin, payload: { pathology_number: NUMBER, patient_name: '测试', case_type: 'routine' } });
    expect(created.statusCode, created.body).toBe(200);
    caseId = created.json().data.id;
    slide = await place(labelled, 'labelled', hospitals[0], caseId);
    bare = await place(unlabelled, 'bare', hospitals[0], null);
    foreign = await place(labelled, 'foreign', hospitals[1], null);
    library = await startTeachingLibraryDouble(TOKEN);
  });
  afterAll(async () => {
    await h?.close();
    await library?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const ocr = (token: string, body: object, lang = 'en-US') => call(app, 'POST', '/api/outer/ocr', { token, lang, payload: body });

  it('outer/ocr reads the label with Tesseract and suggests the case whose number it shows', async () => {
    const read = await ocr(primary, { slide_id: slide });
    expect(read.statusCode, read.body).toBe(200);
    const { text, candidates, matches } = read.json().data;
    expect(text).toContain(NUMBER);
    expect(text).toContain('病理号');
    expect(candidates).toContain(NUMBER);
    expect(matches).toEqual([{ case_id: caseId, pathology_number: NUMBER }]);
  });

  it('outer/ocr: another hospital’s slide, a slide without a label, no permission and bad input are refused in words', async () => {
    // primary works in both hospitals but has the first chosen: the second's slide is not in view.
    expect((await ocr(primary, { slide_id: foreign })).statusCode).toBe(404);
    expect((await ocr(await tokenFor(app, 'technician'), { slide_id: foreign })).statusCode).toBe(404);
    expect((await ocr(primary, { slide_id: 99999999 })).statusCode).toBe(404);
    expect((await ocr(await tokenFor(app, 'registrar'), { slide_id: slide })).statusCode).toBe(403);
    const none = await ocr(primary, { slide_id: bare }, 'zh-CN');
    expect(none.statusCode).toBe(422);
    expect(none.json().message).toBe('该切片没有标签图像');
    expect((await ocr(primary, { slide_id: 'x' })).statusCode).toBe(422);
    expect((await ocr(primary, { slide_id: slide, image: 'thumbnail' })).statusCode).toBe(422);
    expect((await ocr(primary, { slide_id: slide, extra: 1 })).statusCode).toBe(422);
  });

  it('outer/ocr without Tesseract names what to install; a run past its time or memory is stopped, not the server', async () => {
    const broken = async (ocrConfig: object) => {
      const other = await testApp(db, { dataDir, publicUrl: PUBLIC_URL, ocr: ocrConfig });
      try {
        return await other.inject({ method: 'POST', url: '/api/outer/ocr', payload: { slide_id: slide }, headers: { authorization: `Bearer ${primary}`, 'user-language': 'en-US' } });
      } finally {
        await other.close();
      }
    };
    const missing = await broken({ binary: '/nonexistent/tesseract' });
    expect(missing.statusCode).toBe(503);
    expect(missing.json().message).toContain('tesseract-ocr-chi-sim');
    const noModel = await broken({ languages: 'xyz' });
    expect(noModel.statusCode).toBe(503);
    expect(noModel.json().message).toContain('apt-get install tesseract-ocr');
    // 16 MB of address space: the program cannot even load; it fails alone.
    const starved = await broken({ memoryMb: 16 });
    expect(starved.statusCode).toBe(502);
    expect(starved.json().message).toMatch(/^Text recognition failed/);
    // Stopped at once: the time limit kills the process.
    const late = await broken({ timeoutMs: 1 });
    expect(late.statusCode).toBe(504);
  });

  it('outer/jiaopei/config is for administrators; the token is kept but answered as ***; bad addresses are refused in words', async () => {
    expect((await call(app, 'GET', '/api/outer/jiaopei/config', { token: primary })).statusCode).toBe(403);
    expect((await call(app, 'POST', '/api/outer/jiaopei/config', { token: primary, payload: { adapter: 'none' } })).statusCode).toBe(403);
    // Not set up yet: the calls say so.
    const notYet = await call(app, 'GET', '/api/outer/jiaopei/library', { token: primary, lang: 'en-US' });
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json().message).toMatch(/not set up/);

    const insecure = await call(app, 'POST', '/api/outer/jiaopei/config', { token: admin, lang: 'zh-CN', payload: { adapter: 'http', base_url: 'http://teach.example.org', api_token: TOKEN } });
    expect(insecure.statusCode).toBe(422);
    expect(insecure.json().errors.base_url[0]).toContain('https');
    expect((await call(app, 'POST', '/api/outer/jiaopei/config', { token: admin, payload: { adapter: 'http' } })).statusCode).toBe(422);
    expect((await call(app, 'POST', '/api/outer/jiaopei/config', { token: admin, payload: { adapter: 'ftp' } })).statusCode).toBe(422);
    expect(await db.selectFrom('settings').select('key').where('key', '=', 'teaching_library').executeTakeFirst()).toBeUndefined();

    const saved = await call(app, 'POST', '/api/outer/jiaopei/config', { token: admin, payload: { adapter: 'http', base_url: `${library.url}/`, api_token: TOKEN } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toEqual({ adapter: 'http', base_url: library.url, api_token: '***' });
    expect((await call(app, 'POST', '/api/outer/jiaopei/config', { token: admin, payload: { adapter: 'http', api_token: '***' } })).statusCode).toBe(200);
    const read = await call(app, 'GET', '/api/outer/jiaopei/config', { token: admin });
    expect(read.body).not.toContain(TOKEN);
    // Stored sealed (security/sealed-secrets.ts), also after the masked token was sent back; the library double
    // below answers only to TOKEN, so the calls prove it is opened where it is used.
    const stored = (await db.selectFrom('settings').select('value').where('key', '=', 'teaching_library').executeTakeFirstOrThrow()).value;
    expect(stored).not.toContain(TOKEN);
    expect(JSON.parse(stored).api_token).toMatch(/^enc:v1:/);
    // Not reachable through the generic settings API, whoever asks.
    expect((await call(app, 'GET', '/api/common/setting/get?settings_key=teaching_library', { token: admin })).statusCode).toBe(404);
    const logged = await db.selectFrom('operation_logs').select('payload').where('route', '=', '/api/outer/jiaopei/config').execute();
    expect(logged.length).toBeGreaterThanOrEqual(4);
    expect(logged.map((l) => l.payload).join()).not.toContain(TOKEN);
  });

  it('outer/jiaopei/library lists the teaching system’s libraries through the adapter', async () => {
    const res = await call(app, 'GET', '/api/outer/jiaopei/library', { token: primary });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.data).toEqual([
      { id: 'gastro', name: 'Gastrointestinal pathology', parent_id: null },
      { id: 'gastro-stomach', name: 'Stomach', parent_id: 'gastro' },
      { id: 'broken', name: 'Broken library', parent_id: null },
    ]);
    expect((await call(app, 'GET', '/api/outer/jiaopei/library', { token: await tokenFor(app, 'technician') })).statusCode).toBe(403);
  });

  it('outer/jiaopei/bind links slides once, sends no patient data, and refuses other hospitals, unknown libraries and the library’s refusals, changing nothing', async () => {
    const bind = (token: string, body: object, lang = 'en-US') => call(app, 'POST', '/api/outer/jiaopei/bind', { token, lang, payload: body });
    const links = () => db.selectFrom('teaching_links').select(['slide_id', 'library_id', 'external_id']).orderBy('id').execute();

    expect((await bind(primary, { slide_ids: [slide, foreign], library_id: 'gastro' })).statusCode).toBe(404);
    expect((await bind(primary, { slide_ids: [99999999], library_id: 'gastro' })).statusCode).toBe(404);
    expect((await bind(await tokenFor(app, 'technician'), { slide_ids: [slide], library_id: 'gastro' })).statusCode).toBe(403);
    const unknown = await bind(primary, { slide_ids: [slide], library_id: 'nowhere' }, 'zh-CN');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.library_id[0]).toBe('教学库中没有该分类');
    expect((await bind(primary, { slide_ids: [], library_id: 'gastro' })).statusCode).toBe(422);
    expect((await bind(primary, { slide_ids: [slide], ids: [slide], library_id: 'gastro' })).statusCode).toBe(422);
    expect((await bind(primary, { slide_ids: Array.from({ length: 101 }, (_, i) => i + 1), library_id: 'gastro' })).statusCode).toBe(422);
    const refused = await bind(primary, { slide_ids: [slide], library_id: 'broken' });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toMatch(/teaching library refused/);
    expect(await links()).toEqual([]);
    expect(library.received).toEqual([]);

    const done = await bind(primary, { slide_ids: [slide, bare, slide], library_id: 'gastro' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toEqual({ linked: [{ slide_id: slide, external_id: `T-gastro-${slide}` }, { slide_id: bare, external_id: `T-gastro-${bare}` }], already: [] });
    expect(library.received).toHaveLength(1);
    expect(library.received[0].slides[0]).toEqual({ slide_id: slide, name: 'labelled', pathology_number: NUMBER, specimen_name: null, viewer_url: `${PUBLIC_URL}/kfb/${caseId}/${slide}` });
    expect(JSON.stringify(library.received)).not.toContain('测试');

    // Again, and in parallel: already linked, nothing sent twice, one link each.
    // (`ids`: the list engine's batch shape, SlideLibrary's "Link to teaching library".)
    const again = await Promise.all([1, 2, 3].map(() => bind(primary, { ids: [slide, bare], library_id: 'gastro' })));
    for (const a of again) expect(a.json().data).toEqual({ linked: [], already: [slide, bare] });
    expect(library.received).toHaveLength(1);
    expect(await links()).toEqual([
      { slide_id: slide, library_id: 'gastro', external_id: `T-gastro-${slide}` },
      { slide_id: bare, library_id: 'gastro', external_id: `T-gastro-${bare}` },
    ]);
    const logged = await db.selectFrom('operation_logs').select('status_code').where('route', '=', '/api/outer/jiaopei/bind').execute();
    expect(logged.length).toBeGreaterThanOrEqual(10);
  });

  it('outer/jiaopei: a library that cannot be reached is said so', async () => {
    await db.updateTable('settings').set({ value: JSON.stringify({ adapter: 'http', base_url: 'http://127.0.0.1:9', api_token: TOKEN }) }).where('key', '=', 'teaching_library').execute();
    const res = await call(app, 'GET', '/api/outer/jiaopei/library', { token: primary, lang: 'zh-CN' });
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toContain('无法连接教学库');
  });
});
