import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * Issue 31 item 7, on both databases: the clinic files a pathology request (ClinicalApplications), follows it, and the
 * registrar registers the case from it (SlideApply). A clinician reaches only the applications within their
 * hospital's `clinical-reach` (their own by default): another clinician's is 404 on every route, another hospital's
 * too; a request without a patient or a specimen is refused field by field in the user's language and writes nothing.
 * Item 9's server side: the case's lab answer carries its hospital, digital slides and reports.
 */
describe.each(databases)('clinical applications [%s]', (kind) => {
  let h: Harness;
  const t: Record<string, string> = {};
  let hospitalId = 0;

  type Res = Awaited<ReturnType<typeof call>>;
  const as = (who: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, lang = 'en-US') => call(h.app, method, url, { token: t[who], lang, payload });
  const data = (res: Res) => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const listed = async (who: string) => (data(await as(who, 'GET', '/api/clinical/applications/lists?page_size=100')).data as { id: number }[]).map((r) => r.id).sort((a, b) => a - b);
  const file = async (who: string, body: object = {}) =>
    data(await as(who, 'POST', '/api/pathology/applications/apply', { patient_name: '林芳', specimen_name: '胃窦、胃体', inspection_department: '消化内科', ...body })) as { id: number; apply_number: string };
  const count = async () => Number((await h.db.selectFrom('case_applications').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const reach = (mode: string) => as('admin', 'PATCH', '/api/config/workflow/update', { audit: true, clinical_reach: mode });

  beforeAll(async () => {
    h = await startApp(kind);
    // A second clinician of the same hospital.
    const model = await h.db.selectFrom('users').selectAll().where('name', '=', 'clinician').executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const { id: other } = await h.db.insertInto('users').values({ ...model, id: undefined, name: 'clinician2', realname: '冯临床', email: null, created_at: now, updated_at: now })
      .returning('id').executeTakeFirstOrThrow();
    const role = await h.db.selectFrom('roles').select('id').where('identification', '=', 'clinician').executeTakeFirstOrThrow();
    hospitalId = (await h.db.selectFrom('user_hospitals').select('hospital_id').where('user_id', '=', model.id).executeTakeFirstOrThrow()).hospital_id;
    await h.db.insertInto('user_roles').values({ user_id: other, role_id: role.id }).execute();
    await h.db.insertInto('user_hospitals').values({ user_id: other, hospital_id: hospitalId }).execute();
    for (const u of ['admin', 'registrar', 'clinician', 'clinician2', 'technician']) t[u] = await tokenFor(h.app, u);
  }, 120_000);
  afterAll(async () => h?.close());

  it('files a request without a number: the server numbers it, the clinician is its applicant, its state is "applied"', async () => {
    const app = await file('clinician', { gender: 'female', age: 47, age_unit: 'year', outpatient_number: 'MZ-CA-1', clinical_diagnosis: '胃镜：胃窦溃疡，待排恶性' });
    expect(app.apply_number).toMatch(/^SQ\d{8}-[0-9A-Z]{5}$/);
    const row = await h.db.selectFrom('case_applications').selectAll().where('id', '=', app.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 0, hospital_id: hospitalId, applied_by: await userId(h.db, 'clinician'), patient_name: '林芳', specimen_name: '胃窦、胃体', clinical_diagnosis: '胃镜：胃窦溃疡，待排恶性' });
    const item = data(await as('clinician', 'GET', `/api/clinical/applications/item/${app.id}`));
    expect(item).toMatchObject({ id: app.id, status: 0, outpatient_number: 'MZ-CA-1', pathology_number: null });
    // A number sent by the caller is kept, and a taken one is refused.
    const typed = await file('clinician', { apply_number: `CA-${kind}-1` });
    expect(typed.apply_number).toBe(`CA-${kind}-1`);
    const taken = await as('clinician', 'POST', '/api/pathology/applications/apply', { apply_number: `CA-${kind}-1`, patient_name: '林芳', specimen_name: '胃窦' });
    expect(taken.statusCode).toBe(409);
  });

  it('refuses a request without a patient or a specimen, field by field in the user\'s language; nothing is written', async () => {
    const before = await count();
    const en = await as('clinician', 'POST', '/api/pathology/applications/apply', { patient_name: '  ', specimen_name: '' });
    expect(en.statusCode).toBe(422);
    expect(en.json()).toMatchObject({ message: 'The submitted data is not valid', errors: { patient_name: ["Enter the patient's name"], specimen_name: ['Enter the specimen sent'] } });
    const zh = await as('clinician', 'POST', '/api/pathology/applications/apply', { specimen_name: '胃窦' }, 'zh-CN');
    expect(zh.statusCode).toBe(422);
    expect(zh.json()).toMatchObject({ message: '提交的数据不正确', errors: { patient_name: ['请填写患者姓名'] } });
    expect(zh.json().errors.specimen_name).toBeUndefined();
    // Bounded: an overlong clinical history and an unknown field are refused too.
    expect((await as('clinician', 'POST', '/api/pathology/applications/apply', { patient_name: '林芳', specimen_name: '胃窦', clinical_diagnosis: 'x'.repeat(2001) })).statusCode).toBe(422);
    expect((await as('clinician', 'POST', '/api/pathology/applications/apply', { patient_name: '林芳', specimen_name: '胃窦', status: 3 })).statusCode).toBe(422);
    expect(await count()).toBe(before);
    // Only a role holding case_apply files one.
    expect((await as('technician', 'POST', '/api/pathology/applications/apply', { patient_name: '林芳', specimen_name: '胃窦' })).statusCode).toBe(403);
    expect(await count()).toBe(before);
  });

  it('a clinician reaches their own applications only: another clinician\'s and another hospital\'s are 404 on every route', async () => {
    const mine = await file('clinician', { patient_name: '周敏' });
    const theirs = await file('clinician2', { patient_name: '吴静', inspection_department: '乳腺外科' });
    const clinicianId = await userId(h.db, 'clinician');
    const branch = await h.db.selectFrom('hospitals').select('id').where('id', '<>', hospitalId).orderBy('id').executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const { id: away } = await h.db.insertInto('case_applications').values({
      hospital_id: branch.id, apply_number: `CA-B-${kind}`, status: 0, case_type: 'routine', patient_name: '孙萍', specimen_name: '甲状腺', applied_by: clinicianId, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();

    const own = await listed('clinician');
    expect(own).toContain(mine.id);
    expect(own).not.toContain(theirs.id);
    expect(own).not.toContain(away);
    expect(await listed('clinician2')).toEqual([theirs.id]);
    for (const id of [theirs.id, away]) {
      expect((await as('clinician', 'GET', `/api/clinical/applications/item/${id}`)).statusCode, String(id)).toBe(404);
      const before = await h.db.selectFrom('case_applications').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const dispatched = await as('clinician', 'POST', `/api/pathology/applications/${id}/dispatch`, {}, 'zh-CN');
      expect(dispatched.statusCode).toBe(404);
      expect(dispatched.json().message).toBe('申请单不存在或不属于当前医院');
      expect(await h.db.selectFrom('case_applications').selectAll().where('id', '=', id).executeTakeFirstOrThrow()).toEqual(before);
    }
    // Counts and filters are narrowed the same way.
    const tabs = encodeURIComponent(JSON.stringify([{ key: 'all' }, { key: 'applied', filter: [{ column: 'status', operator: '=', value: 0 }] }]));
    expect(data(await as('clinician2', 'GET', `/api/clinical/applications/count?tabs=${tabs}`))).toEqual({ all: 1, applied: 1 });
    // The lab's list stays the lab's: a clinician (no case_view) is refused it; the registrar sees every application of the hospital.
    expect((await as('clinician', 'GET', '/api/pathology/applications/lists')).statusCode).toBe(403);
    const lab = (data(await as('registrar', 'GET', '/api/clinical/applications/lists?page_size=100')).data as { id: number }[]).map((r) => r.id);
    expect(lab).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    expect(lab).not.toContain(away);
  });

  it('department and hospital reach, as the hospital sets it, widen what a clinician sees of the applications', async () => {
    const a = await file('clinician', { patient_name: '郑洁', inspection_department: '甲乳外科' });
    const b = await file('clinician2', { patient_name: '王丽', inspection_department: '甲乳外科' });
    const c = await file('clinician2', { patient_name: '何平', inspection_department: '泌尿外科' });
    try {
      data(await reach('department'));
      const seen = await listed('clinician');
      expect(seen).toEqual(expect.arrayContaining([a.id, b.id]));
      expect(seen).not.toContain(c.id);
      data(await reach('hospital'));
      expect(await listed('clinician')).toEqual(expect.arrayContaining([a.id, b.id, c.id]));
    } finally {
      data(await reach('own'));
    }
    expect(await listed('clinician')).not.toContain(b.id);
  });

  it('the registrar registers the case from a received application: its patient, clinical information and each specimen it names', async () => {
    const app = await file('clinician', { patient_name: '钱蓉', gender: 'female', age: 45, age_unit: 'year', admission_number: 'ZY-CA-7', inspection_doctor: '李医生', clinical_diagnosis: '胃窦溃疡' });
    data(await as('clinician', 'POST', `/api/pathology/applications/${app.id}/dispatch`));
    // Registration is the lab's: the clinician may not.
    expect((await as('clinician', 'POST', `/api/pathology/applications/${app.id}/register`)).statusCode).toBe(403);
    data(await as('registrar', 'POST', `/api/pathology/applications/${app.id}/receive`));
    const created = data(await as('registrar', 'POST', `/api/pathology/applications/${app.id}/register`)) as { id: number; pathology_number: string };
    const caseRow = await h.db.selectFrom('cases').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(caseRow).toMatchObject({
      apply_id: app.id, patient_name: '钱蓉', gender: 'female', age: 45, admission_number: 'ZY-CA-7', inspection_department: '消化内科', inspection_doctor: '李医生',
      clinical_diagnosis: '胃窦溃疡', specimen_name: '胃窦、胃体', main_phase: 'registration', sub_phase: 'to_receive',
    });
    const specimens = await h.db.selectFrom('case_specimens').select(['name', 'seq']).where('case_id', '=', created.id).orderBy('seq').execute();
    expect(specimens).toEqual([{ name: '胃窦', seq: 1 }, { name: '胃体', seq: 2 }]);
    // The clinician sees it registered, with the case's number.
    expect(data(await as('clinician', 'GET', `/api/clinical/applications/item/${app.id}`))).toMatchObject({ status: 3, case_id: created.id, pathology_number: created.pathology_number });
    // Once registered it is closed; the step was logged.
    const again = await as('registrar', 'POST', `/api/pathology/applications/${app.id}/register`, {}, 'zh-CN');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('该申请单已登记或已拒收');
    const logged = await h.db.selectFrom('operation_logs').select(['username', 'status_code']).where('path', '=', `/api/pathology/applications/${app.id}/register`).execute();
    expect(logged).toEqual(expect.arrayContaining([{ username: 'registrar', status_code: 200 }]));
    expect((await as('registrar', 'POST', '/api/pathology/applications/999999/register')).statusCode).toBe(404);
  });

  it('the case\'s lab answer carries what its home shows: the hospital, every registered field, digital slides and reports', async () => {
    const reg = data(await as('registrar', 'POST', '/api/pathology/register', {
      patient_name: '陈静', id_number: '11010119790101002X', phone: '13800000000', outpatient_number: 'MZ-HOME-1', inspection_hospital: '市第一医院',
      clinical_diagnosis: '甲状腺结节', nation: '汉族', specimens: [{ name: '甲状腺' }],
    })) as { id: number };
    const now = new Date().toISOString();
    const { id: slideId } = await h.db.insertInto('slides').values({
      hospital_id: hospitalId, case_id: reg.id, name: 'home-1.svs', file_path: 'x/home-1.svs', file_size: 1, status: 'ready', has_label: 0, has_macro: 0, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    const lab = data(await as('registrar', 'GET', `/api/pathology/${reg.id}/lab`));
    const hospital = await h.db.selectFrom('hospitals').select(['name', 'en_name']).where('id', '=', hospitalId).executeTakeFirstOrThrow();
    expect(lab.case).toMatchObject({
      id_number: '11010119790101002X', phone: '13800000000', outpatient_number: 'MZ-HOME-1', inspection_hospital: '市第一医院', clinical_diagnosis: '甲状腺结节',
      hospital_name: hospital.name, hospital_en_name: hospital.en_name,
    });
    expect(JSON.parse(lab.case.extra)).toMatchObject({ nation: '汉族' });
    expect(lab.slides).toEqual([expect.objectContaining({ id: slideId, name: 'home-1.svs', status: 'ready' })]);
    expect(lab.reports).toEqual([]);
  });
});
