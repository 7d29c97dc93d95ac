import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseAtFirstDiagnosis, type Send } from './diagnosis-setup.js';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * Issue 31 item 1, on both databases: the clinical side's report list and a clinician's report PDF. A clinician
 * reaches the signed, sent reports of the cases they applied for (or, as the hospital's `clinical-reach` rule says,
 * their departments' or the whole hospital's); never an unsigned or unsent one, another clinician's, or another
 * hospital's; the PDF route answers them 200 for a report in reach and 404 for any other, and the pathologists'
 * way to it is unchanged.
 */
describe.each(databases)('clinical reports [%s]', (kind) => {
  let h: Harness;
  const t: Record<string, string> = {};
  let seq = 0;
  const sent = { own: 0, department: 0, otherHospital: 0 };
  const unsent = { draft: 0, signedOnly: 0 };

  const send: Send = async (who, method, url, payload) => {
    const res = await call(h.app, method, url, { token: t[who], lang: 'en-US', payload });
    if (res.statusCode !== 200) throw new Error(`${method} ${url} as ${who}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  type Report = { id: number; version: number };
  const act = (who: string, r: Report, action: string, extra: object = {}) =>
    send(who, 'POST', `/api/diagnosis/reports/${r.id}/actions/${action}`, { version: r.version, ...extra }) as Promise<Report>;

  /** A case at first diagnosis: from one of the clinician's applications, or registered at the desk (`desk`). */
  const newCase = async (desk?: Record<string, unknown>) => {
    if (desk) return caseAtFirstDiagnosis(send, await userId(h.db, 'primary'), { patient_name: '赵雨', ...desk });
    const applied = await send('clinician', 'POST', '/api/pathology/applications/apply', {
      apply_number: `CR-${kind}-${++seq}`, patient_name: '钱蓉', gender: 'female', age: 45, age_unit: 'year', specimen_name: '乳腺肿物', inspection_department: '乳腺外科',
    });
    return caseAtFirstDiagnosis(send, await userId(h.db, 'primary'), { application_id: applied.id });
  };
  /** The case's report taken as far as `until`: a draft, signed (issued now), or signed and sent. */
  const reportOf = async (caseId: number, until: 'draft' | 'signed' | 'sent') => {
    let r = await send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, { report_type: 1, diagnosis: '（乳腺）纤维腺瘤', microscopic: '乳腺导管及间质增生' }) as Report;
    if (until === 'draft') return r.id;
    r = await act('primary', r, 'submit');
    r = await act('auditor', r, 'approve');
    r = await act('signer', r, 'sign', { issue: 'now' });
    if (until === 'sent') r = await act('signer', r, 'send');
    return r.id;
  };
  const listed = async (who: string, query = '') => {
    const res = await call(h.app, 'GET', `/api/clinical/reports/lists?page_size=100${query}`, { token: t[who], lang: 'en-US' });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data.data as { id: number }[]).map((r) => r.id).sort((a, b) => a - b);
  };
  const pdf = (who: string, id: number) => call(h.app, 'GET', `/api/diagnosis/reports/${id}/pdf`, { token: t[who], lang: 'en-US' });
  const reach = (mode: string) => send('admin', 'PATCH', '/api/config/workflow/update', { audit: true, clinical_reach: mode });

  beforeAll(async () => {
    h = await startApp(kind);
    // A second clinician of the same hospital, who applied for nothing.
    const model = await h.db.selectFrom('users').selectAll().where('name', '=', 'clinician').executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const { id: other } = await h.db.insertInto('users').values({ ...model, id: undefined, name: 'clinician2', realname: '冯临床', email: null, created_at: now, updated_at: now })
      .returning('id').executeTakeFirstOrThrow();
    const role = await h.db.selectFrom('roles').select('id').where('identification', '=', 'clinician').executeTakeFirstOrThrow();
    const hospital = await h.db.selectFrom('user_hospitals').select('hospital_id').where('user_id', '=', model.id).executeTakeFirstOrThrow();
    await h.db.insertInto('user_roles').values({ user_id: other, role_id: role.id }).execute();
    await h.db.insertInto('user_hospitals').values({ user_id: other, hospital_id: hospital.hospital_id }).execute();
    for (const u of ['admin', 'registrar', 'sampler', 'technician', 'allocator', 'primary', 'auditor', 'signer', 'clinician']) t[u] = await tokenFor(h.app, u);
    t.clinician2 = await tokenFor(h.app, 'clinician2');

    sent.own = await reportOf(await newCase(), 'sent');
    unsent.draft = await reportOf(await newCase(), 'draft');
    unsent.signedOnly = await reportOf(await newCase(), 'signed');
    // Registered at the desk (no application), sent in by the department the clinician's applications name.
    sent.department = await reportOf(await newCase({ inspection_department: '乳腺外科' }), 'sent');
    // The same kind of report in the other hospital, on an application of the clinician's there.
    const branch = await h.db.selectFrom('hospitals').select('id').where('code', '=', 'H002').executeTakeFirstOrThrow();
    const ownRow = await h.db.selectFrom('reports').selectAll().where('id', '=', sent.own).executeTakeFirstOrThrow();
    const caseRow = await h.db.selectFrom('cases').selectAll().where('id', '=', ownRow.case_id).executeTakeFirstOrThrow();
    const { id: branchCase } = await h.db.insertInto('cases').values({ ...caseRow, id: undefined, hospital_id: branch.id, pathology_number: `B-${kind}-1`, subspecialty_id: null, apply_id: null })
      .returning('id').executeTakeFirstOrThrow();
    await h.db.insertInto('case_applications').values({
      hospital_id: branch.id, apply_number: `CR-B-${kind}`, status: 3, case_type: 'routine', patient_name: '孙萍', gender: null, age: null, age_unit: null, outpatient_number: null,
      admission_number: null, inspection_department: '乳腺外科', inspection_doctor: null, specimen_name: null, clinical_diagnosis: null, reject_reason: null, case_id: branchCase,
      applied_by: model.id, dispatched_at: null, dispatched_by: null, received_at: null, received_by: null, created_at: now, updated_at: now,
    }).execute();
    sent.otherHospital = (await h.db.insertInto('reports').values({ ...ownRow, id: undefined, hospital_id: branch.id, case_id: branchCase, verify_code: null, verify_hash: null })
      .returning('id').executeTakeFirstOrThrow()).id;
  }, 240_000);
  afterAll(async () => h?.close());

  it('own requests (the default): the sent report of the case they applied for, nothing unsigned, unsent, of others or of another hospital', async () => {
    expect(await listed('clinician')).toEqual([sent.own]);
    expect(await listed('clinician2')).toEqual([]);
    // What the row carries for the page: the case, the slides' link target, the PDF link's text.
    const res = await call(h.app, 'GET', `/api/clinical/reports/item/${sent.own}`, { token: t.clinician, lang: 'en-US' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: sent.own, patient_name: '钱蓉', inspection_department: '乳腺外科', diagnosis: '（乳腺）纤维腺瘤', pdf: 'PDF', slide_count: 0 });
    expect(res.json().data.pathology_number).toBeTruthy();
    for (const id of [unsent.draft, unsent.signedOnly, sent.department, sent.otherHospital]) {
      expect((await call(h.app, 'GET', `/api/clinical/reports/item/${id}`, { token: t.clinician })).statusCode, String(id)).toBe(404);
    }
    // The "my requests" tab's filter (the page's $me) narrows, never widens.
    const mine = JSON.stringify([{ column: 'applicant', operator: '=', value: '$me', condition: 'and' }]);
    expect(await listed('clinician', `&filter=${encodeURIComponent(mine)}`)).toEqual([sent.own]);
    expect(await listed('clinician2', `&filter=${encodeURIComponent(mine)}`)).toEqual([]);
  });

  it('the PDF: 200 for the clinician’s own sent report, 404 for every other report, and unchanged for the pathologists', async () => {
    const own = await pdf('clinician', sent.own);
    expect(own.statusCode, own.body.slice(0, 200)).toBe(200);
    expect(own.headers['content-type']).toContain('application/pdf');
    expect(own.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(own.headers['x-report-document']).toBe('frozen');
    for (const id of [unsent.draft, unsent.signedOnly, sent.department, sent.otherHospital]) expect((await pdf('clinician', id)).statusCode, String(id)).toBe(404);
    expect((await pdf('clinician2', sent.own)).statusCode).toBe(404);
    // A pathologist still reads any report of their hospital, drafts included; nobody signed out reads one.
    expect((await pdf('primary', unsent.draft)).statusCode).toBe(200);
    expect((await call(h.app, 'GET', `/api/diagnosis/reports/${sent.own}/pdf`)).statusCode).toBe(401);
    // The list is the clinical side's: a registrar (case_view, no clinical code) is refused it.
    expect((await call(h.app, 'GET', '/api/clinical/reports/lists', { token: t.registrar })).statusCode).toBe(403);
  });

  it('department and hospital reach, as the hospital configures it; unsigned and unsent reports stay out whatever the reach', async () => {
    try {
      expect(await reach('department')).toMatchObject({ clinical_reach: 'department' });
      expect(await listed('clinician')).toEqual([sent.own, sent.department].sort((a, b) => a - b));
      expect(await listed('clinician2')).toEqual([]);
      expect((await pdf('clinician', sent.department)).statusCode).toBe(200);
      await reach('hospital');
      const all = await listed('clinician2');
      expect(all).toEqual(expect.arrayContaining([sent.own, sent.department]));
      for (const id of [unsent.draft, unsent.signedOnly, sent.otherHospital]) expect(all).not.toContain(id);
      expect((await pdf('clinician2', sent.own)).statusCode).toBe(200);
      expect((await pdf('clinician2', unsent.signedOnly)).statusCode).toBe(404);
      expect((await pdf('clinician2', sent.otherHospital)).statusCode).toBe(404);
      // A later workflow save that does not name the reach keeps it.
      expect(await send('admin', 'PATCH', '/api/config/workflow/update', { audit: true })).toMatchObject({ clinical_reach: 'hospital' });
    } finally {
      await reach('own');
    }
    expect(await listed('clinician2')).toEqual([]);
  });

  it('the clinician’s menu has the clinical report list; a registrar’s does not', async () => {
    const aliases = async (who: string) => {
      const menus = (await send(who, 'GET', '/api/system_management/users/menu')) as unknown as { alias: string; children: unknown[] }[];
      const walk = (list: { alias: string; children: unknown[] }[]): string[] => list.flatMap((m) => [m.alias, ...walk(m.children as typeof list)]);
      return walk(menus);
    };
    expect(await aliases('clinician')).toContain('ClinicalReports');
    expect(await aliases('registrar')).not.toContain('ClinicalReports');
  });
});
