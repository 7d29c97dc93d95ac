import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoDepartment } from '../../server/db/seed/demo-department.js';
import { seedDemoSlides } from '../../server/db/seed/demo-slides.js';
import { DEMO_FREEZE_JOB, freezeSeededReports } from '../../server/db/seed/department-freeze-job.js';
import { appStorage } from '../../server/storage/app-storage.js';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/**
 * The demo's living department (server/db/seed/demo-department.ts, run by server/setup.ts for `npm start`): on the
 * base demo of each database, with the demo slide files, every dashboard tile, statistic and work list has rows,
 * every signed report has its frozen document, and running it again adds nothing.
 */
describe.each(databases)('demo department [%s]', (kind) => {
  let h: Harness;
  let dataDir: string;
  const t: Record<string, string> = {};
  const get = async (who: string, url: string) => {
    const res = await call(h.app, 'GET', url, { token: t[who], lang: 'en-US' });
    expect(res.statusCode, `${who} ${url}`).toBe(200);
    return res.json().data;
  };
  const seedIt = () => seedDemoDepartment(h.db, { dataDir });

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-department-'));
    h = await startApp(kind, { config: { dataDir } });
    await seedDemoSlides(h.db, dataDir);
    expect(await seedIt()).toBe(true);
    for (const who of ['admin', 'primary', 'auditor', 'signer', 'technician', 'scanner', 'qc', 'clinician', 'registrar']) t[who] = await tokenFor(h.app, who);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the base demo rows and adds the department once', async () => {
    const base = await h.db.selectFrom('cases').select(['id', 'pathology_number']).where('id', '<=', 6).orderBy('id').execute();
    expect(base.map((c) => c.pathology_number)).toEqual(['P2026-00001', 'P2026-00002', 'P2026-00003', 'F2026-00001', 'C2026-00001', 'P2026-00001']);
    const count = async () => Number((await h.db.selectFrom('cases').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    expect(before).toBeGreaterThan(100);
    expect(await seedIt()).toBe(false);
    expect(await count()).toBe(before);
  });

  it('has cases in every phase, urgent ones and signed reports, whose documents the queued job freezes as signing does', async () => {
    const phases = await h.db.selectFrom('cases').select(['main_phase', 'sub_phase']).distinct().execute();
    const seen = new Set(phases.map((p) => `${p.main_phase}/${p.sub_phase ?? ''}`));
    for (const p of ['registration/', 'sample/', 'slide_making/cut', 'diagnosis/to_allot', 'diagnosis/to_first', 'diagnosis/to_audit', 'diagnosis/to_sign', 'diagnosis/signed']) expect(seen, p).toContain(p);
    expect((await h.db.selectFrom('cases').select('id').where('expedite_status', '=', 1).execute()).length).toBeGreaterThan(0);
    const signed = await h.db.selectFrom('reports').select(['id', 'case_id', 'report_type', 'sub_phase']).where('sign_at', 'is not', null).orderBy('id').execute();
    expect(signed.length).toBeGreaterThan(50);
    const supplement = signed.find((r) => r.report_type === 2 && r.sub_phase === 'accept')!;
    expect(supplement).toBeDefined();
    expect((await h.db.selectFrom('jobs').select('status').where('type', '=', DEMO_FREEZE_JOB).execute()).map((j) => j.status)).toEqual(['queued']);

    // The job's freezing, on one sent case's report and its supplement (all of them take a minute of PDFs).
    const main = signed.find((r) => r.case_id === supplement.case_id && r.report_type === 1)!;
    expect(await freezeSeededReports(h.db, { storage: appStorage({ dataDir }).storage, publicUrl: 'http://localhost:8001', reportIds: [main.id, supplement.id] })).toBe(2);
    const documents = await h.db.selectFrom('report_documents').select(['report_id', 'kind', 'supplements_document_id', 'id']).orderBy('id').execute();
    expect(documents.map((d) => [d.report_id, d.kind])).toEqual([[main.id, 'signed'], [supplement.id, 'supplementary']]);
    expect(documents[1].supplements_document_id).toBe(documents[0].id);
    // Frozen once: a second run finds nothing to do.
    expect(await freezeSeededReports(h.db, { storage: appStorage({ dataDir }).storage, publicUrl: 'http://localhost:8001', reportIds: [main.id, supplement.id] })).toBe(0);
    // The PDF served is the frozen document's, and its verification page says the seal holds.
    for (const lang of ['zh-CN', 'en-US']) {
      const pdf = await call(h.app, 'GET', `/api/diagnosis/reports/${main.id}/pdf`, { token: t.signer, lang });
      expect(pdf.statusCode, lang).toBe(200);
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    }
    const code = (await h.db.selectFrom('reports').select('verify_code').where('id', '=', main.id).executeTakeFirstOrThrow()).verify_code!;
    const verify = await call(h.app, 'GET', `/api/reports/verify/${code}`, { lang: 'en-US' });
    expect(verify.statusCode).toBe(200);
  }, 120_000);

  it('fills every dashboard tile of the roles that see them', async () => {
    const primary = await get('primary', '/api/statistic/dashboard');
    expect(Object.values(primary.today.phases as Record<string, number>).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(primary.mine.to_diagnose).toBeGreaterThan(0);
    expect(primary.timeouts.over).toBeGreaterThan(0);
    const scanner = await get('scanner', '/api/statistic/dashboard');
    expect(Object.keys(scanner.scanners)).toEqual(expect.arrayContaining(['idle', 'working', 'offline', 'error']));
    const technician = await get('technician', '/api/statistic/dashboard');
    expect(technician.uploads.not_bound).toBeGreaterThan(0);
  });

  it('gives every statistic rows over the last three months', async () => {
    const sums = async (who: string, kind: string) => {
      const data = await get(who, `/api/statistic/${kind}?period=lastThreeMonths`);
      return (data.rows as Record<string, number | string>[]).reduce((n, r) => n + Object.entries(r).filter(([k]) => k !== 'bucket').reduce((a, [, v]) => a + (typeof v === 'number' ? v : 0), 0), 0);
    };
    for (const kind of ['workload', 'rejected', 'timeout']) expect(await sums('admin', kind), kind).toBeGreaterThan(0);
    for (const kind of ['slides', 'slide_views']) expect(await sums('admin', kind), kind).toBeGreaterThan(0);
    for (const kind of ['scanner', 'scan_access']) expect(await sums('admin', kind), kind).toBeGreaterThan(0);
    expect(await sums('admin', 'income'), 'income').toBeGreaterThan(0);
  });

  it('fills the work lists: cases, reports to review, QC, meetings, messages and the clinician\'s reports', async () => {
    expect((await get('registrar', '/api/pathology/lists?page_size=10')).total).toBeGreaterThan(100);
    expect((await get('primary', '/api/meetings')).length ?? (await get('primary', '/api/meetings')).data.length).toBeGreaterThan(0);
    expect((await get('primary', '/api/messages/lists?page_size=10')).total).toBeGreaterThan(0);
    expect((await get('clinician', '/api/clinical/reports/lists?page_size=10')).total).toBeGreaterThan(0);
  });
});
