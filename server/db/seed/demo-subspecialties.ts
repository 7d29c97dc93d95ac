import type { Db } from '../connect.js';

/** The directories a general pathology department files its work under, in both languages. */
export const DEMO_SUBSPECIALTIES = [
  { code: 'breast', name: '乳腺病理', en_name: 'Breast' },
  { code: 'gi', name: '消化病理', en_name: 'Gastrointestinal' },
  { code: 'gyn', name: '妇产科病理', en_name: 'Gynaecological' },
  { code: 'derm', name: '皮肤病理', en_name: 'Dermatopathology' },
  { code: 'haem', name: '血液病理', en_name: 'Haematopathology' },
  { code: 'head_neck', name: '头颈病理', en_name: 'Head & neck' },
] as const;

/** Demo cases filed by what their specimen is; the frozen thyroid stays unfiled (visible to every directory). */
const FILED: Record<string, Record<string, string>> = {
  H001: { 'P2026-00001': 'gi', 'P2026-00002': 'breast', 'P2026-00003': 'head_neck', 'C2026-00001': 'gyn' },
  H002: { 'P2026-00001': 'gi' },
};

/** Into an empty table only: each demo hospital's directories, and its demo cases filed under them. */
export async function seedDemoSubspecialties(db: Db): Promise<void> {
  if (await db.selectFrom('subspecialties').select('id').limit(1).executeTakeFirst()) return;
  const now = new Date().toISOString();
  for (const hospital of await db.selectFrom('hospitals').select(['id', 'code']).orderBy('id').execute()) {
    const rows = await db.insertInto('subspecialties')
      .values(DEMO_SUBSPECIALTIES.map((d, i) => ({ ...d, hospital_id: hospital.id, rank: i + 1, enabled: 1, created_at: now, updated_at: now })))
      .returning(['id', 'code']).execute();
    for (const [number, code] of Object.entries(FILED[hospital.code] ?? {})) {
      const id = rows.find((r) => r.code === code)?.id;
      if (id !== undefined) await db.updateTable('cases').set({ subspecialty_id: id }).where('hospital_id', '=', hospital.id).where('pathology_number', '=', number).execute();
    }
  }
}
