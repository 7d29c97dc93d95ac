import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoSlide, type DemoSlideResult } from '../../server/modules/slides/demo-slide/generate.js';
import { call, databases, ingested, startApp, testApp, tokenFor, type Harness } from './harness.js';

/** One generated slide, copied per suite to where a finished upload leaves its file. */
let template: DemoSlideResult;
let templateDir: string;

beforeAll(async () => {
  templateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-slides-tpl-'));
  template = await generateDemoSlide({ out: path.join(templateDir, 'demo.tiff'), width: 2000, height: 1500, tileSize: 256, mpp: 0.25, seed: 11, slideId: 'S-11', label: true });
});
afterAll(() => fs.rmSync(templateDir, { recursive: true, force: true }));

describe.each(databases)('slides [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;
  let admin: string;
  let registrar: string;
  let slideId: number;
  let filePath: string;
  let caseId: number;

  /** Puts a copy of the template where the upload module leaves completed files; answers the path it would return. */
  const placeUpload = (uploadId: string, name: string) => {
    const dir = path.join(dataDir, 'uploads', 'complete', uploadId);
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(template.file, path.join(dir, name));
    return `uploads/complete/${uploadId}/${name}`;
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-slides-'));
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir });
    await app.ready();
    [admin, registrar] = await Promise.all([tokenFor(app, 'admin'), tokenFor(app, 'registrar')]);
    const created = await call(app, 'POST', '/api/pathology/store', { token: admin, payload: { pathology_number: 'S-2026-042', patient_name: '测试', case_type: 'routine' } });
    expect(created.statusCode).toBe(200);
    caseId = created.json().data.id;
  });
  afterAll(async () => {
    await app.close();
    await h.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('binds a completed upload: moves it under slides/<yyyy>/<mm>/ and records what the file says', async () => {
    const uploaded = placeUpload('u1', 'case-a.tiff');
    const res = await call(app, 'POST', '/api/data/kfb/bind', { token: admin, payload: { path: uploaded, case_id: caseId, name: 'Case A' } });
    expect(res.statusCode).toBe(200);
    // Answered at once; the ingest job reads the file.
    expect(res.json().data).toMatchObject({ status: 'ingesting', name: 'Case A', case_id: caseId });
    const row = await ingested(app, admin, res.json().data.id);
    slideId = row.id;
    filePath = row.file_path;
    expect(row).toMatchObject({
      name: 'Case A', case_id: caseId, pathology_number: 'S-2026-042', patient_name: '测试', width: 2000, height: 1500, levels: template.levels.length, tile_size: 256,
      status: 'ready', vendor: 'aperio', file_size: fs.statSync(template.file).size, has_label: 1,
      thumb_url: `/api/data/kfb/thumb/${row.id}`,
    });
    expect(row.mpp).toBeCloseTo(0.25, 6);
    expect(row.md5).toMatch(/^[0-9a-f]{32}$/);
    expect(filePath).toMatch(/^slides\/\d{4}\/\d{2}\/case-a\.tiff$/);
    expect(fs.existsSync(path.join(dataDir, filePath))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, uploaded))).toBe(false);

    const log = await h.db.selectFrom('section_logs').selectAll().where('slide_id', '=', slideId).execute();
    expect(log.map((l) => l.action)).toEqual(['bind']);
    expect(log[0].username).toBe('admin');
  });

  it('serves a JPEG thumbnail of at most 512 px, with an ETag, by header or image cookie', async () => {
    const res = await call(app, 'GET', `/api/data/kfb/thumb/${slideId}`, { token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toMatch(/^private/);
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(512);
    const again = await call(app, 'GET', `/api/data/kfb/thumb/${slideId}`, { token: admin, headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect((await app.inject({ method: 'GET', url: `/api/data/kfb/thumb/${slideId}`, headers: { cookie: `dsms_image=${admin}` } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: `/api/data/kfb/thumb/${slideId}` })).statusCode).toBe(401);
    expect((await call(app, 'GET', `/api/data/kfb/thumb/${slideId}`, { token: registrar })).statusCode).toBe(403);
  });

  it('serves tiles by slide id', async () => {
    const dzi = await call(app, 'GET', `/api/tiles/${slideId}.dzi`, { token: admin });
    expect(dzi.statusCode).toBe(200);
    expect(dzi.body).toContain('Width="2000"');
    const tile = await call(app, 'GET', `/api/tiles/${slideId}_files/11/0_0.jpeg`, { token: admin });
    expect(tile.statusCode).toBe(200);
    expect(tile.headers['content-type']).toBe('image/jpeg');
    expect((await call(app, 'GET', '/api/tiles/999999.dzi', { token: admin })).statusCode).toBe(404);
  });

  it('lists, filters and searches slides, and lists the slides of a case', async () => {
    const second = await call(app, 'POST', '/api/data/kfb/bind', { token: admin, payload: { path: placeUpload('u2', 'other.tiff') } });
    expect(second.statusCode).toBe(200);
    expect(second.json().data).toMatchObject({ name: 'other', case_id: null });
    await ingested(app, admin, second.json().data.id);

    const all = await call(app, 'GET', '/api/data/kfb/lists', { token: admin });
    expect(all.json().data.total).toBe(2);
    const searched = await call(app, 'GET', `/api/data/kfb/lists?search=${encodeURIComponent('Case')}`, { token: admin });
    expect(searched.json().data.data.map((r: { id: number }) => r.id)).toEqual([slideId]);
    const filtered = await call(app, 'GET', `/api/data/kfb/lists?params=${encodeURIComponent(JSON.stringify({ status: 'ready', case_id: caseId }))}`, { token: admin });
    expect(filtered.json().data.data.map((r: { id: number }) => r.id)).toEqual([slideId]);
    const big = await call(app, 'GET', `/api/data/kfb/lists?filter=${encodeURIComponent(JSON.stringify([{ column: 'file_size', operator: '>', value: 1 }]))}`, { token: admin });
    expect(big.json().data.total).toBe(2);

    const ofCase = await call(app, 'GET', `/api/slide_making/slide/lists/${caseId}`, { token: admin });
    expect(ofCase.statusCode).toBe(200);
    expect(ofCase.json().data).toMatchObject({ total: 1, current_page: 1 });
    expect(ofCase.json().data.data[0].id).toBe(slideId);
  });

  it('refuses binding to a role without slide_upload, and files outside the allowed folders', async () => {
    const uploaded = placeUpload('u3', 'c.tiff');
    expect((await call(app, 'POST', '/api/data/kfb/bind', { token: registrar, payload: { path: uploaded } })).statusCode).toBe(403);
    expect((await call(app, 'GET', '/api/data/kfb/lists', { token: registrar })).statusCode).toBe(403);

    for (const outside of ['slides/thumbs/1.jpg', '../../etc/passwd', '/etc/passwd', 'uploads/parts/x/1', 'uploads/complete', 'dsms.sqlite']) {
      const res = await call(app, 'POST', '/api/data/kfb/bind', { token: admin, lang: 'en-US', payload: { path: outside } });
      expect(res.statusCode, outside).toBe(422);
      expect(res.json().message).toMatch(/Only files in the completed-uploads or slides folders/);
    }
    const missing = await call(app, 'POST', '/api/data/kfb/bind', { token: admin, payload: { path: 'uploads/complete/none/x.tiff' } });
    expect(missing.statusCode).toBe(422);
    // A file already bound is not bound twice.
    expect((await call(app, 'POST', '/api/data/kfb/bind', { token: admin, payload: { path: filePath } })).statusCode).toBe(409);
    // Rows come from bind only.
    expect((await call(app, 'POST', '/api/data/kfb/store', { token: admin, payload: { name: 'x' } })).statusCode).toBe(422);
  });

  it('keeps a file the reader cannot tile, marked for conversion', async () => {
    const dir = path.join(dataDir, 'uploads', 'complete', 'u4');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'scan.kfb'), Buffer.from('KFB not really'));
    const res = await call(app, 'POST', '/api/data/kfb/bind', { token: admin, payload: { path: 'uploads/complete/u4/scan.kfb' } });
    expect(res.statusCode).toBe(200);
    expect(await ingested(app, admin, res.json().data.id)).toMatchObject({ status: 'needs_conversion', vendor: 'kfbio', width: null, file_size: 14 });
    expect((await call(app, 'GET', `/api/tiles/${res.json().data.id}.dzi`, { token: admin })).statusCode).toBe(404);
  });

  it('converts a plain PNG once to a pyramidal TIFF beside it and serves that', async () => {
    const dir = path.join(dataDir, 'uploads', 'complete', 'u5');
    fs.mkdirSync(dir, { recursive: true });
    await sharp({ create: { width: 1200, height: 900, channels: 3, background: { r: 230, g: 180, b: 200 } } }).png().toFile(path.join(dir, 'photo.png'));
    const res = await call(app, 'POST', '/api/data/kfb/bind', { token: admin, payload: { path: 'uploads/complete/u5/photo.png' } });
    expect(res.statusCode).toBe(200);
    const row = await ingested(app, admin, res.json().data.id);
    expect(row).toMatchObject({ name: 'photo', status: 'ready', vendor: 'generic-tiff', width: 1200, height: 900 });
    expect(row.file_path).toMatch(/^slides\/\d{4}\/\d{2}\/photo\.png\.tiff$/);
    // What the row says of the file is what was uploaded (as for a slide converted by its job), not of the pyramid.
    const png = fs.readFileSync(path.join(dataDir, row.file_path.slice(0, -'.tiff'.length)));
    expect(row).toMatchObject({ file_size: png.length, md5: createHash('md5').update(png).digest('hex') });
    expect((await call(app, 'GET', `/api/tiles/${row.id}.dzi`, { token: admin })).statusCode).toBe(200);
    // The original, bound again where it now lies, is refused: converting it again would overwrite the served TIFF.
    const tiff = fs.statSync(path.join(dataDir, row.file_path));
    const again = await call(app, 'POST', '/api/data/kfb/bind', { token: admin, payload: { path: row.file_path.slice(0, -'.tiff'.length) } });
    expect(again.statusCode).toBe(409);
    expect(fs.statSync(path.join(dataDir, row.file_path)).mtimeMs).toBe(tiff.mtimeMs);
    // Deleting the slide takes the original photo with it.
    const original = path.join(dataDir, row.file_path.slice(0, -'.tiff'.length));
    expect(fs.existsSync(original)).toBe(true);
    expect((await call(app, 'DELETE', '/api/data/kfb/destroy', { token: admin, payload: { ids: [row.id] } })).statusCode).toBe(200);
    expect(fs.existsSync(original)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, row.file_path))).toBe(false);
  });

  it('keeps a file that breaks the reader as an error row, not an orphan on disk', async () => {
    const dir = path.join(dataDir, 'uploads', 'complete', 'u6');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'broken.png'), Buffer.from('not a png'));
    const res = await call(app, 'POST', '/api/data/kfb/bind', { token: admin, payload: { path: 'uploads/complete/u6/broken.png' } });
    expect(res.statusCode).toBe(200);
    expect(await ingested(app, admin, res.json().data.id)).toMatchObject({ status: 'error', file_size: 9, width: null });
  });

  it('deletes the row, its file and its thumbnail, and logs it', async () => {
    const thumb = path.join(dataDir, 'slides', 'thumbs', `${slideId}.jpg`);
    expect(fs.existsSync(thumb)).toBe(true);
    const res = await call(app, 'DELETE', '/api/data/kfb/destroy', { token: admin, payload: { ids: [slideId] } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.deleted).toBe(1);
    expect(fs.existsSync(path.join(dataDir, filePath))).toBe(false);
    expect(fs.existsSync(thumb)).toBe(false);
    const log = await h.db.selectFrom('section_logs').select('action').where('slide_id', '=', slideId).orderBy('id').execute();
    expect(log.map((l) => l.action)).toEqual(['bind', 'delete']);
    expect((await call(app, 'GET', `/api/data/kfb/item/${slideId}`, { token: admin })).statusCode).toBe(404);
  });
});
