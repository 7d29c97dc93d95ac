import type { Db } from '../connect.js';

/** A handful of registered cases per demo hospital, so slides have something to be bound to. */
const DEMO_CASES = [
  { hospital: 'H001', pathology_number: 'P2026-00001', case_type: 'routine', patient_name: '张伟', gender: 'male', age: 56, specimen_name: '胃黏膜活检', inspection_department: '消化内科' },
  { hospital: 'H001', pathology_number: 'P2026-00002', case_type: 'routine', patient_name: '李娜', gender: 'female', age: 43, specimen_name: '乳腺穿刺组织', inspection_department: '乳腺外科' },
  { hospital: 'H001', pathology_number: 'P2026-00003', case_type: 'routine', patient_name: '王芳', gender: 'female', age: 61, specimen_name: '颈部淋巴结', inspection_department: '头颈外科' },
  { hospital: 'H001', pathology_number: 'F2026-00001', case_type: 'frozen', patient_name: '刘洋', gender: 'male', age: 38, specimen_name: '甲状腺结节', inspection_department: '甲乳外科' },
  { hospital: 'H001', pathology_number: 'C2026-00001', case_type: 'cell', patient_name: '陈静', gender: 'female', age: 35, specimen_name: '宫颈液基细胞', inspection_department: '妇科' },
  { hospital: 'H002', pathology_number: 'P2026-00001', case_type: 'routine', patient_name: '赵磊', gender: 'male', age: 67, specimen_name: '结肠息肉', inspection_department: '胃肠外科' },
];

/** Into an empty table only; returns the demo hospital's cases by number for binding the demo slides. */
export async function seedDemoCases(db: Db): Promise<void> {
  if (await db.selectFrom('cases').select('id').limit(1).executeTakeFirst()) return;
  const hospitals = new Map((await db.selectFrom('hospitals').select(['id', 'code']).execute()).map((h) => [h.code, h.id]));
  const registrar = await db.selectFrom('users').select('id').where('name', '=', 'registrar').executeTakeFirst();
  const now = new Date().toISOString();
  for (const { hospital, ...c } of DEMO_CASES) {
    const hospitalId = hospitals.get(hospital);
    if (hospitalId === undefined) continue;
    await db.insertInto('cases').values({
      ...c, hospital_id: hospitalId, age_unit: 'year', main_phase: 'slide_making', expedite_status: 0,
      inspection_hospital: null, registration_at: now, registration_doctor: registrar?.id ?? null, extra: '{}', created_at: now, updated_at: now,
    }).execute();
  }
}
