import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';

/**
 * The glass slide a label barcode names, in the scanner's hospital and not yet scanned: its `label` when one was
 * printed, else the code the slide labels carry (`<pathology number>-<block>-<section>`, cases/labels.ts).
 */
export async function sectionByBarcode(db: Db, hospitalId: number, barcode: string): Promise<{ id: number; case_id: number } | undefined> {
  const code = sql<string>`c.pathology_number || '-' || s.block_number || '-' || CAST(s.section_number AS VARCHAR(16))`;
  return db.selectFrom('slide_sections as s').innerJoin('cases as c', 'c.id', 's.case_id')
    .select(['s.id', 's.case_id'])
    .where('s.hospital_id', '=', hospitalId).where('s.slide_id', 'is', null)
    .where((eb) => eb.or([eb('s.label', '=', barcode), eb.and([eb('s.label', 'is', null), eb(code, '=', barcode)])]))
    .orderBy('s.id').executeTakeFirst();
}
