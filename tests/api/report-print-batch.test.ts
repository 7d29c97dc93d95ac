import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';
import { caseAtFirstDiagnosis, type Send } from './diagnosis-setup.js';

/**
 * Batch print (issue 33): the signed reports asked for come back as one PDF, in the order asked, each report's own
 * signed pages, and each is recorded as printed; one that may not be printed (not signed, another hospital's, a role
 * that does not print) refuses the whole batch and marks nothing.
 */
describe.each(databases)('batch print of reports [%s]', (kind) => {
  let h: Harness;
  const t: Record<string, string> = {};
  const reports: Record<string, { id: number; caseId: number }> = {};
  const send: Send = async (who, method, url, payload) => {
    const res = await call(h.app, method, url, { token: t[who], lang: 'zh-CN', payload });
    if (res.statusCode !== 200) throw new Error(`${method} ${url} as ${who}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const printed = async (id: number) => (await h.db.selectFrom('reports').select('print_at').where('id', '=', id).executeTakeFirstOrThrow()).print_at;
  const batch = (ids: unknown, who = 'signer', lang = 'zh-CN') => call(h.app, 'POST', '/api/diagnosis/reports/print-batch', { token: t[who], lang, payload: { ids } });
  const pdfText = (pdf: Buffer) => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-batch-')), 'b.pdf');
    fs.writeFileSync(file, pdf);
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file]).toString())![1]);
    return { pages, text: execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-']).toString() };
  };

  beforeAll(async () => {
    h = await startApp(kind);
    for (const u of ['registrar', 'sampler', 'technician', 'allocator', 'primary', 'auditor', 'signer']) t[u] = await tokenFor(h.app, u);
    const primaryId = await userId(h.db, 'primary');
    // A, B and D signed; C submitted, not signed.
    for (const [name, steps] of [['甲', 3], ['乙', 3], ['丙', 1], ['丁', 3]] as const) {
      const caseId = await caseAtFirstDiagnosis(send, primaryId, { patient_name: `批量打印${name}`, gender: 'female', age: 40, age_unit: 'year' });
      let r = await send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, { report_type: 1, gross_description: '灰白组织一块', diagnosis: `（胃窦）慢性炎${name}` }) as { id: number; version: number };
      for (const [who, action] of ([['primary', 'submit'], ['auditor', 'approve'], ['signer', 'sign']] as const).slice(0, steps)) {
        r = await send(who, 'POST', `/api/diagnosis/reports/${r.id}/actions/${action}`, { version: r.version, ...(action === 'sign' ? { issue: 'now' } : {}) }) as typeof r;
      }
      reports[name] = { id: r.id, caseId };
    }
  });
  afterAll(async () => h?.close());

  it('joins the signed PDFs in the order asked and records each as printed', async () => {
    const single = await call(h.app, 'GET', `/api/diagnosis/reports/${reports['甲'].id}/pdf`, { token: t.signer, lang: 'zh-CN' });
    const onePage = pdfText(single.rawPayload).pages;
    const res = await batch([reports['乙'].id, reports['甲'].id]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const { pages, text } = pdfText(res.rawPayload);
    expect(pages).toBe(2 * onePage);
    expect(text.indexOf('批量打印乙')).toBeGreaterThanOrEqual(0);
    expect(text.indexOf('批量打印乙')).toBeLessThan(text.indexOf('批量打印甲'));
    for (const name of ['甲', '乙']) {
      expect(await printed(reports[name].id)).toBeTruthy();
      const line = await h.db.selectFrom('case_timeline').select('action').where('case_id', '=', reports[name].caseId).where('action', '=', 'report_print').executeTakeFirst();
      expect(line?.action).toBe('report_print');
    }
  });

  it('prints cases too: each case\'s issued reports, in the order asked; a case with none refuses the batch', async () => {
    const res = await call(h.app, 'POST', '/api/diagnosis/reports/print-batch', { token: t.signer, lang: 'en-US', payload: { case_ids: [reports['甲'].caseId, reports['乙'].caseId] } });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const { text } = pdfText(res.rawPayload);
    expect(text.indexOf('批量打印甲')).toBeLessThan(text.indexOf('批量打印乙'));
    const refused = await call(h.app, 'POST', '/api/diagnosis/reports/print-batch', { token: t.signer, lang: 'en-US', payload: { case_ids: [reports['丁'].caseId, reports['丙'].caseId] } });
    expect(refused.statusCode).toBe(409);
    expect(await printed(reports['丁'].id)).toBeNull();
    expect((await call(h.app, 'POST', '/api/diagnosis/reports/print-batch', { token: t.signer, payload: { ids: [reports['甲'].id], case_ids: [reports['甲'].caseId] } })).statusCode).toBe(422);
  });

  it('refuses the whole batch when one report is not signed, naming its case, and marks none printed', async () => {
    const number = (await h.db.selectFrom('cases').select('pathology_number').where('id', '=', reports['丙'].caseId).executeTakeFirstOrThrow()).pathology_number;
    for (const lang of ['zh-CN', 'en-US']) {
      const res = await batch([reports['丁'].id, reports['丙'].id], 'signer', lang);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain(number);
      expect(res.json().message).toMatch(lang === 'zh-CN' ? /尚未发放/ : /is not issued/);
    }
    expect(await printed(reports['丁'].id)).toBeNull();
  });

  it('checks the list and the caller: 422 for an empty, oversized or repeated list, 403 without the permission, 404 for another hospital', async () => {
    for (const ids of [[], Array.from({ length: 101 }, (_, i) => i + 1), [reports['甲'].id, reports['甲'].id], [0]]) {
      expect((await batch(ids)).statusCode).toBe(422);
    }
    expect((await batch([reports['丁'].id], 'registrar')).statusCode).toBe(403);
    const other = await h.db.insertInto('hospitals').values({ code: 'H0PB', name: '外院', en_name: 'Outside Hospital', logo: null, created_at: new Date().toISOString() }).returning('id').executeTakeFirstOrThrow();
    await h.db.updateTable('reports').set({ hospital_id: other.id }).where('id', '=', reports['丁'].id).execute();
    await h.db.updateTable('cases').set({ hospital_id: other.id }).where('id', '=', reports['丁'].caseId).execute();
    expect((await batch([reports['甲'].id, reports['丁'].id])).statusCode).toBe(404);
    expect(await printed(reports['丁'].id)).toBeNull();
  });
});
