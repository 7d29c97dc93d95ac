import type { Db } from '../connect.js';
import { chargeCase } from '../../modules/prices/charges.js';

/** A demo price list (yuan) for each demo hospital, so registrations and orders are charged and income shows. */
const DEMO_PRICES: [item: string, price: number][] = [
  ['case:routine', 120], ['case:frozen', 260], ['case:cell', 60], ['case:outside', 150],
  ['special:immunohistochemisty', 85], ['special:special_stain', 45], ['special:molecular_pathology', 680],
  ['additional:re_cut', 20], ['additional:deep_cut', 20], ['additional:re_sample', 50],
];

/** Into an empty price list only; the demo cases already there are charged as registered. */
export async function seedDemoPrices(db: Db): Promise<void> {
  if (await db.selectFrom('price_items').select('id').limit(1).executeTakeFirst()) return;
  const hospitals = await db.selectFrom('hospitals').select('id').where('code', 'in', ['H001', 'H002']).execute();
  if (!hospitals.length) return;
  const now = new Date().toISOString();
  await db.insertInto('price_items').values(hospitals.flatMap((h) => DEMO_PRICES.map(([item, price]) => ({
    hospital_id: h.id, item, price, status: 1, remark: null, created_at: now, updated_at: now,
  })))).execute();
  const cases = await db.selectFrom('cases').select(['id', 'hospital_id', 'case_type', 'registration_at', 'registration_doctor'])
    .where('hospital_id', 'in', hospitals.map((h) => h.id)).execute();
  await db.transaction().execute(async (trx) => {
    for (const c of cases) {
      await chargeCase(trx, { hospitalId: c.hospital_id, caseId: c.id, by: c.registration_doctor, at: c.registration_at ?? now }, c.case_type ?? 'routine');
    }
  });
}
