import type { Db } from '../../db/connect.js';
import { glassSlidesByCode } from '../slides/queries.js';

/** The glass slide a label barcode names, in the scanner's hospital and not yet scanned (slides/queries.ts says how codes read). */
export async function sectionByBarcode(db: Db, hospitalId: number, barcode: string): Promise<{ id: number; case_id: number } | undefined> {
  return glassSlidesByCode(db, hospitalId, barcode).where('s.slide_id', 'is', null).executeTakeFirst();
}
