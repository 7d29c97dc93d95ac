import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { call, databases, ingested, startApp, testApp, tokenFor, type Harness } from './harness.js';

/** Spec §3 Case, §6 hospital scope and show-all-data, §7 get_id_by_number, and slides bound to cases. */
describe.each(databases)('cases and slide binding [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;
  let admin: string;
  let technician: string;
  let registrar: string;
  let clinician: string;
  let hospitals: { id: number; code: string }[];
  const slideIds: number[] = [];

  const idByNumber = async (token: string, number: string) => call(app, 'GET', `/api/pathology/get_id_by_number/${encodeURIComponent(number)}`, { token });
  const listNumbers = async (token: string, headers: Record<string, string> = {}) =>
    ((await call(app, 'GET', '/api/pathology/lists?page_size=100', { token, headers })).json().data.data as { pathology_number: string; hospital_id: number }[]);

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-cases-'));
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir });
    await app.ready();
    [admin, technician, registrar, clinician] = await Promise.all(['admin', 'technician', 'registrar', 'clinician'].map((u) => tokenFor(app, u)));
    hospitals = await h.db.selectFrom('hospitals').select(['id', 'code']).orderBy('id').execute();
    // Two uploaded slides, bound as the technician (working in the first hospital) without a case.
    const tpl = path.join(dataDir, 'tpl.tiff');
    await generateDemoSlide({ out: tpl, width: 600, height: 400, tileSize: 256, seed: 5, slideId: 'C-5' });
    for (const n of [1, 2]) {
      const dir = path.join(dataDir, 'uploads', 'complete', `c${n}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.copyFileSync(tpl, path.join(dir, `slide-${n}.tiff`));
      const res = await call(app, 'POST', '/api/data/kfb/bind', { token: technician, payload: { path: `uploads/complete/c${n}/slide-${n}.tiff` } });
      expect(res.statusCode, res.body).toBe(200);
      // Read by its ingest job before any test asks for its tiles.
      slideIds.push((await ingested(app, technician, res.json().data.id)).id);
    }
  });
  afterAll(async () => {
    await app.close();
    await h.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('registers a case in the working hospital, stamped with who and when', async () => {
    const res = await call(app, 'POST', '/api/pathology/store', { token: registrar, payload: { pathology_number: 'T2026-0001', case_type: 'routine', patient_name: '测试患者', age: 40, age_unit: 'year' } });
    expect(res.statusCode, res.body).toBe(200);
    const row = res.json().data;
    expect(row).toMatchObject({ pathology_number: 'T2026-0001', hospital_id: hospitals[0].id, main_phase: 'registration', slide_count: 0 });
    expect(row.registration_at).toBeTruthy();
    expect(row.registration_doctor).toBeGreaterThan(0);
    // The server keeps its own fields: a client cannot choose the hospital or the phase.
    const sneaky = await call(app, 'POST', '/api/pathology/store', { token: registrar, payload: { pathology_number: 'T2026-0002', case_type: 'routine', hospital_id: hospitals[1].id, main_phase: 'archive' } });
    expect(sneaky.json().data).toMatchObject({ hospital_id: hospitals[0].id, main_phase: 'registration' });
  });

  it('refuses a duplicate number in the same hospital (translated) but not in another', async () => {
    const dup = await call(app, 'POST', '/api/pathology/store', { token: admin, lang: 'en-US', payload: { pathology_number: 'T2026-0001', case_type: 'routine' } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toMatch(/T2026-0001/);
    await call(app, 'POST', '/api/auth/switch_hospital', { token: admin, payload: { hospital_id: hospitals[1].id } });
    const other = await call(app, 'POST', '/api/pathology/store', { token: admin, payload: { pathology_number: 'T2026-0001', case_type: 'routine' } });
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json().data.hospital_id).toBe(hospitals[1].id);
    const bad = await call(app, 'POST', '/api/pathology/store', { token: admin, lang: 'zh-CN', payload: { pathology_number: '', case_type: 'routine' } });
    expect(bad.statusCode).toBe(422);
    await call(app, 'POST', '/api/auth/switch_hospital', { token: admin, payload: { hospital_id: hospitals[0].id } });
  });

  it('lists the chosen hospital only, and every hospital of the user with show-all-data', async () => {
    const own = await listNumbers(admin);
    expect(new Set(own.map((c) => c.hospital_id))).toEqual(new Set([hospitals[0].id]));
    const all = await listNumbers(admin, { 'x-show-all-data': '1' });
    expect(new Set(all.map((c) => c.hospital_id))).toEqual(new Set(hospitals.map((x) => x.id)));
    // The technician works in the first hospital only: show-all-data cannot widen that.
    const tech = await listNumbers(technician, { 'x-show-all-data': '1' });
    expect(new Set(tech.map((c) => c.hospital_id))).toEqual(new Set([hospitals[0].id]));
    // Another hospital's case is not found by id either.
    const foreign = await h.db.selectFrom('cases').select('id').where('hospital_id', '=', hospitals[1].id).executeTakeFirstOrThrow();
    expect((await call(app, 'GET', `/api/pathology/item/${foreign.id}`, { token: technician })).statusCode).toBe(404);
    expect((await call(app, 'PATCH', `/api/pathology/update/${foreign.id}`, { token: registrar, payload: { patient_name: 'x' } })).statusCode).toBe(404);
    expect((await call(app, 'DELETE', '/api/pathology/destroy', { token: admin, payload: { ids: [foreign.id] } })).statusCode).toBe(404);
    expect((await call(app, 'GET', '/api/pathology/lists', { token: clinician })).statusCode).toBe(403);
  });

  it('finds a case id by pathology number in the working hospital (spec §7)', async () => {
    const res = await idByNumber(technician, 'T2026-0001');
    expect(res.statusCode).toBe(200);
    const row = await h.db.selectFrom('cases').select('id').where('hospital_id', '=', hospitals[0].id).where('pathology_number', '=', 'T2026-0001').executeTakeFirstOrThrow();
    expect(res.json().data.id).toBe(row.id);
    // A scanned cassette or slide label finds its case too (Quick open).
    for (const code of ['T2026-0001-1', 'T2026-0001-A-2']) expect((await idByNumber(technician, code)).json().data.id).toBe(row.id);
    const missing = await idByNumber(technician, 'NOPE-1');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('未找到病理号为 NOPE-1 的病例');
    const frozen = await call(app, 'GET', '/api/pathology/get_id_by_number/F2026-00001?is_not_frozen=1', { token: technician });
    expect(frozen.statusCode).toBe(404);
  });

  it('binds uploaded slides to a case by number, moves them, unbinds them, and logs each step', async () => {
    const move = (payload: object, token = technician, lang?: string) => call(app, 'POST', '/api/data/kfb/move', { token, lang, payload });
    const res = await move({ ids: slideIds, pathology_number: 'T2026-0001' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.moved).toBe(2);
    const listed = await call(app, 'GET', `/api/data/kfb/lists?params=${encodeURIComponent(JSON.stringify({ pathology_number: 'T2026-0001' }))}`, { token: technician });
    expect(listed.json().data.data.map((r: { id: number }) => r.id).sort()).toEqual([...slideIds].sort());
    expect(listed.json().data.data[0]).toMatchObject({ pathology_number: 'T2026-0001', patient_name: '测试患者' });
    // The keyword box finds slides by their case's number too.
    const searched = await call(app, 'GET', `/api/data/kfb/lists?search=T2026-0001`, { token: technician });
    expect(searched.json().data.total).toBe(2);
    // A scanned cassette or slide label (keyboard wedge, issue 10) finds the case and its slides; a code of no case, nothing.
    for (const code of ['T2026-0001-1', 'T2026-0001-A-3']) {
      expect((await call(app, 'GET', `/api/data/kfb/lists?search=${code}`, { token: technician })).json().data.total).toBe(2);
      const cases = (await call(app, 'GET', `/api/pathology/lists?search=${code}`, { token: technician })).json().data.data as { pathology_number: string }[];
      expect(cases.map((r) => r.pathology_number)).toEqual(['T2026-0001']);
    }
    expect((await call(app, 'GET', '/api/pathology/lists?search=T2026-0009-1', { token: technician })).json().data.total).toBe(0);
    const item = (await call(app, 'GET', `/api/pathology/lists?params=${encodeURIComponent(JSON.stringify({ pathology_number: 'T2026-0001' }))}`, { token: technician })).json().data.data[0];
    expect(item.slide_count).toBe(2);

    // A case holding slides is not deleted out from under them.
    const del = await call(app, 'DELETE', '/api/pathology/destroy', { token: admin, lang: 'en-US', payload: { ids: [item.id] } });
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toMatch(/T2026-0001.*2 slide/);

    const unknown = await move({ ids: slideIds, pathology_number: 'NOPE-2' }, technician, 'en-US');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('No case has the pathology number NOPE-2');
    expect((await move({ ids: slideIds, pathology_number: 'P2026-00002' })).statusCode).toBe(200);
    expect((await move({ ids: [slideIds[0]], pathology_number: null })).statusCode).toBe(200);
    const rows = await h.db.selectFrom('slides').select(['id', 'case_id']).where('id', 'in', slideIds).orderBy('id').execute();
    expect(rows[0].case_id).toBeNull();
    expect(rows[1].case_id).not.toBeNull();
    // The uploaded list's "not bound" tab: the empty / not empty operators.
    const ids = async (op: string) => ((await call(app, 'GET', `/api/data/kfb/lists?filter=${encodeURIComponent(JSON.stringify([{ column: 'case_id', operator: op }]))}`, { token: technician })).json().data.data as { id: number }[]).map((r) => r.id);
    expect(await ids('empty')).toContain(slideIds[0]);
    expect(await ids('empty')).not.toContain(slideIds[1]);
    expect(await ids('not empty')).toContain(slideIds[1]);
    expect(await ids('not empty')).not.toContain(slideIds[0]);
    const counts = await call(app, 'GET', `/api/data/kfb/count?tabs=${encodeURIComponent(JSON.stringify([{ key: 'unbound', filter: [{ column: 'case_id', operator: 'empty' }] }, { key: 'all' }]))}`, { token: technician });
    expect(counts.json().data.unbound).toBe((await ids('empty')).length);
    const log = await h.db.selectFrom('section_logs').select(['action', 'detail']).where('slide_id', '=', slideIds[0]).orderBy('id').execute();
    expect(log.map((l) => l.action)).toEqual(['bind', 'move', 'move', 'unbind']);
    expect(log[1].detail).toBe('T2026-0001');

    // Permission and scope: the registrar may not move slides; nobody moves another hospital's.
    expect((await move({ ids: slideIds, pathology_number: 'T2026-0001' }, registrar)).statusCode).toBe(403);
    expect((await move({ ids: [999999], pathology_number: 'T2026-0001' })).statusCode).toBe(404);
    // A generic update cannot set case_id behind the case check.
    await call(app, 'PATCH', `/api/data/kfb/update/${slideIds[0]}`, { token: admin, payload: { case_id: item.id } });
    expect((await h.db.selectFrom('slides').select('case_id').where('id', '=', slideIds[0]).executeTakeFirstOrThrow()).case_id).toBeNull();
  });

  it('binds a new upload straight to a case by its number, and refuses an unknown number leaving the file in place', async () => {
    const dir = path.join(dataDir, 'uploads', 'complete', 'c3');
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(path.join(dataDir, 'tpl.tiff'), path.join(dir, 'slide-3.tiff'));
    const refused = await call(app, 'POST', '/api/data/kfb/bind', { token: technician, payload: { path: 'uploads/complete/c3/slide-3.tiff', pathology_number: 'NOPE-3' } });
    expect(refused.statusCode).toBe(404);
    expect(fs.existsSync(path.join(dir, 'slide-3.tiff'))).toBe(true);
    const res = await call(app, 'POST', '/api/data/kfb/bind', { token: technician, payload: { path: 'uploads/complete/c3/slide-3.tiff', pathology_number: 'P2026-00001' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.pathology_number).toBe('P2026-00001');
    slideIds.push(res.json().data.id);
  });

  it('downloads a slide through a short-lived signed link, with ranges, and logs it', async () => {
    const id = slideIds[1];
    expect((await call(app, 'POST', `/api/data/kfb/download/${id}`, { token: technician })).statusCode).toBe(403);
    const res = await call(app, 'POST', `/api/data/kfb/download/${id}`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const url: string = res.json().data.url;
    expect(url).not.toContain(admin);
    const file = await app.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/^attachment; .*filename\*=UTF-8''slide-2\.tiff$/);
    expect(file.rawPayload.equals(fs.readFileSync(path.join(dataDir, 'tpl.tiff')))).toBe(true);
    const part = await app.inject({ method: 'GET', url, headers: { range: 'bytes=0-3' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.length).toBe(4);
    // Another slide, a changed expiry or a mangled signature: refused, translated.
    expect((await app.inject({ method: 'GET', url: url.replace(`/file/${id}?`, `/file/${slideIds[0]}?`) })).statusCode).toBe(403);
    const stretched = url.replace(/expires=(\d+)/, (_m, e) => `expires=${Number(e) + 3600}`);
    const refused = await app.inject({ method: 'GET', url: stretched, headers: { 'user-language': 'en-US' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/download link is invalid or has expired/);
    const log = await h.db.selectFrom('section_logs').select('action').where('slide_id', '=', id).where('action', '=', 'download').execute();
    expect(log).toHaveLength(1);
  });

  it("serves a slide's tiles and thumbnail only to users of its hospital", async () => {
    const id = slideIds[0];
    const url = `/api/tiles/${id}.dzi`;
    expect((await call(app, 'GET', url, { token: technician })).statusCode).toBe(200);
    await h.db.updateTable('slides').set({ hospital_id: hospitals[1].id }).where('id', '=', id).execute();
    // The resolver remembers a slide for 5 s: a fresh app sees the move at once.
    const fresh = await testApp(h.db, { dataDir });
    try {
      const [tech, adm] = await Promise.all([tokenFor(fresh, 'technician'), tokenFor(fresh, 'admin')]);
      expect((await call(fresh, 'GET', url, { token: tech })).statusCode).toBe(404);
      expect((await fresh.inject({ method: 'GET', url: `/api/tiles/${id}_files/0/0_0.jpeg`, headers: { cookie: `dsms_image=${tech}` } })).statusCode).toBe(404);
      expect((await fresh.inject({ method: 'GET', url: `/api/iiif/${id}/info.json`, headers: { cookie: `dsms_image=${tech}` } })).statusCode).toBe(404);
      expect((await call(fresh, 'GET', `/api/data/kfb/thumb/${id}`, { token: tech })).statusCode).toBe(404);
      // The administrator works in both hospitals.
      expect((await call(fresh, 'GET', url, { token: adm })).statusCode).toBe(200);
    } finally {
      await fresh.close();
      await h.db.updateTable('slides').set({ hospital_id: hospitals[0].id }).where('id', '=', id).execute();
    }
  });
});
