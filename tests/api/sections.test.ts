import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { call, databases, startApp, testApp, tokenFor, type Harness } from './harness.js';

/** Spec §3 slide section (paraffin), §7 POST data/kfb/sectionAdd: glass slides of a case, each bound to its scan. */
describe.each(databases)('slide sections [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;
  let technician: string;
  let registrar: string;
  let admin: string;
  let caseId: number;

  const placeUpload = (name: string) => {
    const dir = path.join(dataDir, 'uploads', 'complete', name);
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(path.join(dataDir, 'tpl.tiff'), path.join(dir, `${name}.tiff`));
    return `uploads/complete/${name}/${name}.tiff`;
  };
  const sectionsOf = async (id: number, token = technician) => (await call(app, 'GET', `/api/data/kfb/sections/${id}`, { token })).json().data as Record<string, unknown>[];

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-sections-'));
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir });
    await app.ready();
    [technician, registrar, admin] = await Promise.all(['technician', 'registrar', 'admin'].map((u) => tokenFor(app, u)));
    await generateDemoSlide({ out: path.join(dataDir, 'tpl.tiff'), width: 600, height: 400, tileSize: 256, seed: 8, slideId: 'SEC-8' });
    const hospital = await h.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow();
    caseId = (await h.db.selectFrom('cases').select('id').where('hospital_id', '=', hospital.id).where('pathology_number', '=', 'P2026-00003').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await app.close();
    await h.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('adds sections to a case by its number, numbering each block on, named as printed on the glass', async () => {
    const res = await call(app, 'POST', '/api/data/kfb/sectionAdd', { token: technician, payload: {
      pathology_number: 'P2026-00003',
      sections: [{ block_number: '1' }, { block_number: '1', stain: 'Ki-67' }, { block_number: '2', section_number: 5, label: 'P2026-00003-2-5' }],
    } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((s: { name: string }) => s.name)).toEqual(['P2026-00003-1-1 HE', 'P2026-00003-1-2 Ki-67', 'P2026-00003-2-5 HE']);
    // The next request goes on from the block's highest number.
    const more = await call(app, 'POST', '/api/data/kfb/sectionAdd', { token: technician, payload: { case_id: caseId, sections: [{ block_number: '1' }, { block_number: '2' }] } });
    expect(more.json().data.map((s: { section_number: number }) => s.section_number)).toEqual([3, 6]);
    expect((await sectionsOf(caseId)).map((s) => `${s.block_number}-${s.section_number}`)).toEqual(['1-1', '1-2', '1-3', '2-5', '2-6']);
  });

  it('refuses a duplicate, an unknown case, no case and a registrar, and adds nothing then (translated)', async () => {
    const before = (await sectionsOf(caseId)).length;
    const dup = await call(app, 'POST', '/api/data/kfb/sectionAdd', { token: technician, lang: 'en-US', payload: { case_id: caseId, sections: [{ block_number: '3' }, { block_number: '1', section_number: 2 }] } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('Section 1-2 already exists');
    const unknown = await call(app, 'POST', '/api/data/kfb/sectionAdd', { token: technician, lang: 'zh-CN', payload: { pathology_number: 'NOPE', sections: [{ block_number: '1' }] } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('未找到病理号为 NOPE 的病例');
    expect((await call(app, 'POST', '/api/data/kfb/sectionAdd', { token: technician, payload: { sections: [{ block_number: '1' }] } })).statusCode).toBe(422);
    expect((await call(app, 'POST', '/api/data/kfb/sectionAdd', { token: technician, payload: { case_id: caseId, sections: [{ block_number: '../x' }] } })).statusCode).toBe(422);
    expect((await call(app, 'POST', '/api/data/kfb/sectionAdd', { token: registrar, payload: { case_id: caseId, sections: [{ block_number: '1' }] } })).statusCode).toBe(403);
    expect((await sectionsOf(caseId)).length).toBe(before);
  });

  it('binds a scan to its section (the slide takes the section\'s case), once; moving the slide away frees the section', async () => {
    const [first] = await sectionsOf(caseId);
    const bound = await call(app, 'POST', '/api/data/kfb/bind', { token: technician, payload: { path: placeUpload('s1'), section_id: first.id } });
    expect(bound.statusCode, bound.body).toBe(200);
    const slide = bound.json().data;
    expect(slide.case_id).toBe(caseId);
    const listed = (await sectionsOf(caseId)).find((s) => s.id === first.id)!;
    expect(listed).toMatchObject({ slide_id: slide.id, slide_name: 's1', thumb_url: `/api/data/kfb/thumb/${slide.id}` });

    // A second scan for the same section is refused and its file stays where the upload left it.
    const second = placeUpload('s2');
    const again = await call(app, 'POST', '/api/data/kfb/bind', { token: technician, payload: { path: second, section_id: first.id } });
    expect(again.statusCode).toBe(409);
    expect(fs.existsSync(path.join(dataDir, second))).toBe(true);
    expect((await call(app, 'POST', '/api/data/kfb/bind', { token: technician, payload: { path: second, section_id: 999999 } })).statusCode).toBe(404);

    // Moved to another case, the slide is no longer that section's scan.
    expect((await call(app, 'POST', '/api/data/kfb/move', { token: technician, payload: { ids: [slide.id], pathology_number: 'P2026-00001' } })).statusCode).toBe(200);
    expect((await sectionsOf(caseId)).find((s) => s.id === first.id)!.slide_id).toBeNull();
    // A case with sections cannot be deleted.
    expect((await call(app, 'DELETE', '/api/pathology/destroy', { token: admin, payload: { ids: [caseId] } })).statusCode).toBe(409);
  });

  it('lets a deleted slide free its section', async () => {
    const [, secondSection] = await sectionsOf(caseId);
    const bound = (await call(app, 'POST', '/api/data/kfb/bind', { token: technician, payload: { path: placeUpload('s3'), section_id: secondSection.id } })).json().data;
    expect((await call(app, 'DELETE', '/api/data/kfb/destroy', { token: admin, payload: { ids: [bound.id] } })).statusCode).toBe(200);
    expect((await sectionsOf(caseId)).find((s) => s.id === secondSection.id)!.slide_id).toBeNull();
  });
});
