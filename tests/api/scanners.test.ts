import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_BYTES as CHUNK } from '../../src/core/constants.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { onEvent, type DomainEvents } from '../../server/events/bus.js';
import { startJobRunner } from '../../server/modules/jobs/runner.js';
import { scannerOfflineJob } from '../../server/modules/scanners/offline-job.js';
import { heartbeat, sweepOffline } from '../../server/modules/scanners/queries.js';
import { call, databases, ingested, startApp, testApp, tokenFor, type Harness } from './harness.js';
import { md5, multipart } from './upload-helpers.js';

/**
 * Scanners: keys issued by an operator, heartbeats moving a scanner through its states and a minute's silence
 * turning it offline (time injected), a key that acts for its own scanner only and opens no user API, and a scan
 * uploaded through the chunked protocol and bound to its case's glass slide by the label barcode.
 */
describe.each(databases)('scanners [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;
  let operator: string;
  let technician: string;
  const scanners: { id: number; key: string }[] = [];
  const events: DomainEvents['scanner.status'][] = [];
  let off: () => void;

  const agent = (key: string, url: string, payload?: object) => call(app, 'POST', url, { headers: { 'x-scanner-key': key }, payload });
  const status = async (id: number) => (await h.db.selectFrom('scanners').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  beforeAll(async () => {
    h = await startApp(kind);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-scanners-'));
    app = await testApp(h.db, { dataDir });
    await app.ready();
    operator = await tokenFor(app, 'scanner');
    technician = await tokenFor(app, 'technician');
    off = onEvent(h.db, 'scanner.status', (e) => events.push(e));
    for (const name of ['KF-PRO-400 #1', 'KF-PRO-400 #2']) {
      const made = await call(app, 'POST', '/api/scanner/store', { token: operator, payload: { name, model: 'KF-PRO-400', area: 'Main', ip: '10.0.0.9' } });
      expect(made.statusCode, made.body).toBe(200);
      const id = made.json().data.id as number;
      const key = await call(app, 'POST', `/api/scanner/key/${id}`, { token: operator });
      expect(key.statusCode, key.body).toBe(200);
      scanners.push({ id, key: key.json().data.key });
    }
  }, 60_000);

  afterAll(async () => {
    off?.();
    await app?.close();
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps only a hash of the key and never lists it', async () => {
    const row = await h.db.selectFrom('scanners').select(['key_hash', 'key_prefix']).where('id', '=', scanners[0].id).executeTakeFirstOrThrow();
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.key_hash).not.toContain(scanners[0].key);
    const list = await call(app, 'GET', '/api/scanner/lists', { token: operator });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(scanners[0].key);
    expect(list.body).not.toContain(row.key_hash);
  });

  it('moves a scanner through its states by heartbeat, announcing each change once', async () => {
    const { id, key } = scanners[0];
    expect(await status(id)).toBe('offline');
    events.length = 0;
    for (const s of ['init', 'idle', 'idle', 'preview', 'working', 'error', 'idle']) {
      const res = await agent(key, '/api/scanner-agent/heartbeat', { status: s });
      expect(res.statusCode, res.body).toBe(200);
      expect(await status(id)).toBe(s);
    }
    expect(events.filter((e) => e.scannerId === id).map((e) => e.status)).toEqual(['init', 'idle', 'preview', 'working', 'error', 'idle']);
    // A scanner cannot declare itself offline; an unknown state is a translated 422 that changes nothing.
    const bad = await agent(key, '/api/scanner-agent/heartbeat', { status: 'offline' });
    expect(bad.statusCode).toBe(422);
    expect(await status(id)).toBe('idle');
  });

  it('goes offline after 60 s of silence (time injected), and back with the next heartbeat', async () => {
    const { id, key } = scanners[0];
    const t0 = new Date();
    await heartbeat(h.db, id, 'working', null, t0);
    expect(await sweepOffline(h.db, new Date(t0.getTime() + 59_000))).toBe(0);
    expect(await status(id)).toBe('working');
    events.length = 0;
    expect(await sweepOffline(h.db, new Date(t0.getTime() + 60_000))).toBeGreaterThanOrEqual(1);
    expect(await status(id)).toBe('offline');
    expect(events.find((e) => e.scannerId === id)?.status).toBe('offline');
    // Swept once: a second sweep finds nothing more to change.
    expect(await sweepOffline(h.db, new Date(t0.getTime() + 61_000))).toBe(0);
    expect((await agent(key, '/api/scanner-agent/heartbeat', { status: 'idle' })).statusCode).toBe(200);
    expect(await status(id)).toBe('idle');
  });

  it('is turned offline by the scheduled sweep after a minute of silence, with no request arriving', async () => {
    const { id } = scanners[1];
    const silentSince = () => new Date(Date.now() - 61_000);
    const until = async (ok: () => Promise<boolean>) => { while (!(await ok())) await new Promise((r) => setTimeout(r, 25)); };
    await heartbeat(h.db, id, 'idle', null, silentSince());
    expect(await status(id)).toBe('idle');
    events.length = 0;
    // The runner main.ts starts, with the sweep's own job type (every 100 ms here): from now on no request arrives.
    const runner = startJobRunner(h.db, { types: [scannerOfflineJob(100)], log: { info() {}, warn() {}, error() {} }, pollMs: 25 });
    try {
      await until(async () => (await status(id)) === 'offline');
      expect(events.filter((e) => e.scannerId === id).map((e) => e.status)).toEqual(['offline']);
      // It runs again on its schedule: silent once more, the scanner is found again.
      await heartbeat(h.db, id, 'working', null, silentSince());
      await until(async () => (await status(id)) === 'offline');
      expect(events.filter((e) => e.scannerId === id).map((e) => e.status)).toEqual(['offline', 'working', 'offline']);
    } finally {
      await runner.stop();
    }
  });

  it('a scanner key acts for its own scanner only and opens no user API', async () => {
    const [a, b] = scanners;
    const scan = await agent(a.key, '/api/scanner-agent/scans', { barcode: 'X-1' });
    expect(scan.statusCode, scan.body).toBe(200);
    const scanId = scan.json().data.id;
    // B cannot finish A's scan (as if it did not exist), nor see it.
    expect((await agent(b.key, `/api/scanner-agent/scans/${scanId}/finish`, { result: 'scan_failed' })).statusCode).toBe(404);
    // Neither as a bearer token nor in its own header does a scanner key open a user route.
    for (const url of ['/api/scanner/lists', '/api/data/kfb/lists', '/api/system_management/users/menu']) {
      expect((await call(app, 'GET', url, { token: a.key })).statusCode).toBe(401);
      expect((await call(app, 'GET', url, { headers: { 'x-scanner-key': a.key } })).statusCode).toBe(401);
    }
    expect((await call(app, 'POST', `/api/scanner/key/${b.id}`, { token: a.key })).statusCode).toBe(401);
    // No key, a made-up key, or a user's token: the agent routes answer 401.
    expect((await call(app, 'POST', '/api/scanner-agent/heartbeat', { payload: { status: 'idle' } })).statusCode).toBe(401);
    expect((await agent(`dsk_${'A'.repeat(43)}`, '/api/scanner-agent/heartbeat', { status: 'idle' })).statusCode).toBe(401);
    expect((await call(app, 'POST', '/api/scanner-agent/heartbeat', { token: operator, payload: { status: 'idle' } })).statusCode).toBe(401);
    // A's own finish works; a revoked key stops at once, a reissued one works.
    expect((await agent(a.key, `/api/scanner-agent/scans/${scanId}/finish`, { result: 'scan_failed' })).statusCode).toBe(200);
    expect((await call(app, 'DELETE', `/api/scanner/key/${b.id}`, { token: operator })).statusCode).toBe(200);
    expect((await agent(b.key, '/api/scanner-agent/heartbeat', { status: 'idle' })).statusCode).toBe(401);
    const again = (await call(app, 'POST', `/api/scanner/key/${b.id}`, { token: operator })).json().data.key;
    expect((await agent(again, '/api/scanner-agent/heartbeat', { status: 'idle' })).statusCode).toBe(200);
    b.key = again;
    // Key management is the operator's: a technician (no scanner_operate) is refused.
    expect((await call(app, 'POST', `/api/scanner/key/${b.id}`, { token: technician })).statusCode).toBe(403);
  });

  it('uploads a scan through the chunked protocol and binds it by barcode, else leaves it not bound', async () => {
    const { key } = scanners[0];
    const added = await call(app, 'POST', '/api/data/kfb/sectionAdd', { token: technician, payload: { pathology_number: 'P2026-00001', sections: [{ block_number: '9' }] } });
    expect(added.statusCode, added.body).toBe(200);
    const section = added.json().data[0];
    const barcode = `P2026-00001-9-${section.section_number}`;

    const send = async (code: string) => {
      const file = path.join(dataDir, `${code}.tiff`);
      await generateDemoSlide({ out: file, width: 1024, height: 768, seed: 7, slideId: code, label: true });
      const data = fs.readFileSync(file);
      const total = Math.max(1, Math.ceil(data.length / CHUNK));
      const scan = (await agent(key, '/api/scanner-agent/scans', { barcode: code, scan_level: 1, scale: 40 })).json().data.id;
      let answer: Record<string, unknown> = {};
      for (let num = 1; num <= total; num++) {
        const bytes = data.subarray((num - 1) * CHUNK, num * CHUNK);
        const body = multipart({ file_name: `${code}.tiff`, num, total_num: total, md5: md5(bytes), total_md5: md5(data) }, { field: 'blob', bytes });
        const res = await app.inject({ method: 'POST', url: '/api/scanner-agent/upload', headers: { 'content-type': body.contentType, 'x-scanner-key': key }, payload: body.payload });
        expect(res.statusCode, res.body).toBe(200);
        answer = res.json().data;
      }
      expect(answer).toMatchObject({ code: 1 });
      // Another scanner cannot hand in this upload as its own.
      const other = await agent(scanners[1].key, '/api/scanner-agent/scans', { barcode: code });
      const stolen = await agent(scanners[1].key, `/api/scanner-agent/scans/${other.json().data.id}/finish`, { result: 'scanned', path: answer.path });
      expect(stolen.statusCode).toBe(403);
      const done = await agent(key, `/api/scanner-agent/scans/${scan}/finish`, { result: 'scanned', path: answer.path });
      expect(done.statusCode, done.body).toBe(200);
      return done.json().data;
    };

    const bound = await send(barcode);
    expect(bound.bind_status).toBe('bound');
    const sectionRow = await h.db.selectFrom('slide_sections').select(['slide_id', 'case_id']).where('id', '=', section.id).executeTakeFirstOrThrow();
    expect(sectionRow.slide_id).toBe(bound.slide_id);
    // Bound at once ('ingesting'); its ingest job makes it ready.
    expect(await ingested(app, await tokenFor(app, 'admin'), bound.slide_id)).toMatchObject({ case_id: sectionRow.case_id, status: 'ready' });
    const job = await h.db.selectFrom('scan_jobs').selectAll().where('slide_id', '=', bound.slide_id).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ result: 'scanned', barcode, scan_level: 1, bind_status: 'bound', section_id: section.id });
    expect(job.duration_ms).toBeGreaterThanOrEqual(0);

    const unbound = await send('NO-SUCH-LABEL');
    expect(unbound.bind_status).toBe('not_bound');
    expect((await h.db.selectFrom('slides').select('case_id').where('id', '=', unbound.slide_id).executeTakeFirstOrThrow()).case_id).toBeNull();
  }, 60_000);
});

describe.each(databases)('slide QC [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;

  beforeAll(async () => {
    h = await startApp(kind);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-qc-'));
    app = await testApp(h.db, { dataDir });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends an unqualified slide back to rescan, and its scanner sees it in its queue', async () => {
    const operator = await tokenFor(app, 'scanner');
    const qc = await tokenFor(app, 'qc');
    const id = (await call(app, 'POST', '/api/scanner/store', { token: operator, payload: { name: 'QC scanner' } })).json().data.id;
    const key = (await call(app, 'POST', `/api/scanner/key/${id}`, { token: operator })).json().data.key;
    const agent = (url: string, payload?: object) => call(app, 'POST', url, { headers: { 'x-scanner-key': key }, payload });
    // A slide of the hospital that this scanner produced.
    const hospital = await h.db.selectFrom('scanners').select('hospital_id').where('id', '=', id).executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const slide = await h.db.insertInto('slides').values({
      hospital_id: hospital.hospital_id, case_id: null, name: 'QC-1', file_path: 'slides/qc-1.tiff', file_size: 1, md5: null, vendor: 'generic-tiff', width: 1, height: 1,
      levels: 1, mpp: null, objective_power: null, scan_at: null, tile_size: 256, status: 'ready', has_label: 0, has_macro: 0, format_note: null, progress: null,
      uploaded_by: null, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    const scan = (await agent('/api/scanner-agent/scans', { barcode: 'QC-1' })).json().data.id;
    await h.db.updateTable('scan_jobs').set({ slide_id: slide.id }).where('id', '=', scan).execute();

    // An unqualified grade needs a reason: a translated 422 that changes nothing.
    const refused = await call(app, 'POST', `/api/slide/qc/grade/${slide.id}`, { token: qc, lang: 'en-US', payload: { grade: 'unqualified', reasons: [] } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toMatch(/reason/);
    expect((await h.db.selectFrom('scan_jobs').select('rescan').where('id', '=', scan).executeTakeFirstOrThrow()).rescan).toBe(0);
    // Grading needs qc_manage.
    expect((await call(app, 'POST', `/api/slide/qc/grade/${slide.id}`, { token: operator, payload: { grade: 'qualified' } })).statusCode).toBe(403);

    const graded = await call(app, 'POST', `/api/slide/qc/grade/${slide.id}`, { token: qc, payload: { grade: 'unqualified', reasons: ['blurry', 'wrong_area'], version: 0 } });
    expect(graded.statusCode, graded.body).toBe(200);
    expect(graded.json().data).toMatchObject({ grade: 'unqualified', reasons: 'blurry,wrong_area', rescan_scan_id: scan, version: 1 });
    // A second grading from the same stale version loses (optimistic version).
    expect((await call(app, 'POST', `/api/slide/qc/grade/${slide.id}`, { token: qc, payload: { grade: 'qualified', version: 0 } })).statusCode).toBe(409);

    const beat = (await agent('/api/scanner-agent/heartbeat', { status: 'idle' })).json().data;
    expect(beat.rescan.map((r: { id: number }) => r.id)).toEqual([scan]);
    // Scanning the barcode again answers the request.
    await agent('/api/scanner-agent/scans', { barcode: 'QC-1' });
    expect((await agent('/api/scanner-agent/heartbeat', { status: 'idle' })).json().data.rescan).toEqual([]);

    // The A–D evaluation, and the QC list (worst focus first) shows the grade.
    expect((await call(app, 'POST', `/api/slide/qc/judge/${slide.id}`, { token: qc, payload: { judge: 'C' } })).statusCode).toBe(200);
    const list = await call(app, 'GET', '/api/slide/qc/lists', { token: qc });
    expect(list.statusCode, list.body).toBe(200);
    expect(JSON.stringify(list.json().data)).toContain('"judge":"C"');
  });
});
