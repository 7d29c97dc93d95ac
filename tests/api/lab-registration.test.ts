import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

type Menu = { alias: string; children: { alias: string }[] }[];

/** A full registration (spec §3): patient, inspection and specimen fields. */
const FULL = {
  case_type: 'routine', expedite_status: 1,
  patient_name: '吴倩', gender: 'female', age: 47, age_unit: 'year', id_number: '11010119790101002X', phone: '138 0000 0001',
  nation: '汉族', career: '教师', marriage: 'married', fee_type: 'self',
  treat_type: 'hospital', admission_number: 'ZY-REG-1', medical_number: 'BL-77', bed_number: '3-15',
  inspection_hospital: '示范医院', inspection_department: '普外科', inspection_doctor: '钱医生', inspection_date: '2026-11-20',
  clinical_diagnosis: '甲状腺结节',
  specimens: [
    { name: '甲状腺左叶', specimen_type: 0, fixative: '10% NBF', location: '左叶', leave_body_at: '2026-11-20T09:30', fixed_at: '2026-11-20T09:45' },
    { name: '淋巴结', specimen_type: 3, location: '颈部' },
  ],
};

/**
 * Registration's full form (issue 10, spec §3): the register command takes every patient, inspection and specimen
 * field and checks each registration with the CaseRegistration form's contract through the shared form rules
 * (src/core/formRules.ts, as the browser's form does): visit type → which number is required, bed number only for
 * inpatients, each specimen fixed no earlier than it left the body, ID and phone formats. A refusal is a 422 in the
 * user's language naming the field, and writes nothing. On both databases.
 */
describe.each(databases)('full case registration [%s]', (kind) => {
  let h: Harness;
  const t: Record<string, string> = {};
  const post = (who: string, payload: object, lang = 'en-US') => call(h.app, 'POST', '/api/pathology/register', { token: t[who], lang, payload });
  const caseCount = async () => Number((await h.db.selectFrom('cases').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const refused = async (payload: object, field: string, en: string, zh: string) => {
    const before = await caseCount();
    for (const [lang, text] of [['en-US', en], ['zh-CN', zh]] as const) {
      const res = await post('registrar', payload, lang);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors?.[field]).toContain(text);
    }
    expect(await caseCount()).toBe(before);
  };

  beforeAll(async () => {
    h = await startApp(kind);
    for (const u of ['registrar', 'sampler']) t[u] = await tokenFor(h.app, u);
  });
  afterAll(async () => h?.close());

  it('the registrar has the full form in the case menu; the sampler neither sees it nor may register', async () => {
    const menuOf = async (who: string) => ((await call(h.app, 'GET', '/api/system_management/users/menu', { token: t[who] })).json().data as Menu)
      .flatMap((g) => [g.alias, ...g.children.map((c) => c.alias)]);
    expect(await menuOf('registrar')).toContain('CaseRegistration');
    expect(await menuOf('sampler')).not.toContain('CaseRegistration');
    const schema = await call(h.app, 'GET', '/api/schemas/CaseRegistration', { token: t.registrar });
    expect(schema.statusCode).toBe(200);
    expect((await post('sampler', FULL)).statusCode).toBe(403);
  });

  it('registers with every spec §3 field: columns, extra fields and specimens stored, the case awaiting receipt', async () => {
    const res = await post('registrar', FULL);
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json().data;
    expect(created).toMatchObject({
      patient_name: '吴倩', id_number: '11010119790101002X', treat_type: 'hospital', admission_number: 'ZY-REG-1', bed_number: '3-15',
      inspection_hospital: '示范医院', inspection_date: '2026-11-20', expedite_status: 1, main_phase: 'registration', sub_phase: 'to_receive',
      specimen_name: '甲状腺左叶、淋巴结',
    });
    const extra = typeof created.extra === 'string' ? JSON.parse(created.extra) : created.extra;
    expect(extra).toEqual({ nation: '汉族', career: '教师', marriage: 'married', fee_type: 'self', medical_number: 'BL-77' });
    const lab = (await call(h.app, 'GET', `/api/pathology/${created.id}/lab`, { token: t.registrar })).json().data;
    expect(lab.specimens.map((s: Record<string, unknown>) => [s.name, s.specimen_type, s.fixative, s.location, s.leave_body_at, s.fixed_at])).toEqual([
      ['甲状腺左叶', 0, '10% NBF', '左叶', '2026-11-20T09:30', '2026-11-20T09:45'],
      ['淋巴结', 3, null, '颈部', null, null],
    ]);
  });

  it('the form\'s rules refuse, in the user\'s language, naming the field, and write nothing', async () => {
    const { admission_number: _a, ...noAdmission } = FULL;
    await refused(noAdmission, 'admission_number', 'Admission no. is required', '住院号 为必填项');
    await refused({ ...FULL, treat_type: 'clinic', outpatient_number: 'MZ-1' }, 'bed_number',
      'Bed no. is not shown on this form for these values and cannot be saved', '床号 在当前填写内容下不显示，不能保存');
    await refused({ ...FULL, specimens: [{ name: '甲状腺', leave_body_at: '2026-11-20T10:00', fixed_at: '2026-11-20T09:00' }] }, 'specimens',
      'A specimen cannot be fixed before it left the body', '标本的固定时间不能早于离体时间');
    await refused({ ...FULL, id_number: '12345' }, 'id_number', 'ID number has the wrong format', '身份证号 的格式不正确');
    await refused({ specimens: [{ name: 'x' }], outpatient_number: 'MZ-2' }, 'patient_name', 'Patient name is required', '姓名 为必填项');
    await refused({ ...FULL, marriage: 'complicated' }, 'marriage', 'Marital status is not one of the allowed values', '婚姻状况 不是允许的取值');
  });

  it('the quick form and material without a patient still register (the form requires a name only with patient facts)', async () => {
    expect((await post('registrar', { patient_name: '快速', specimens: [{ name: '皮肤' }] })).statusCode).toBe(200);
    expect((await post('registrar', { case_type: 'routine', specimens: [{ name: 'Block' }] })).statusCode).toBe(200);
  });
});
