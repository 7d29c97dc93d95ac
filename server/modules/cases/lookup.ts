import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';

/**
 * The case with this number in the hospital, or null; `notFrozen` skips frozen-section cases. A case outside the
 * request's directories (the row scope) is as missing as an unknown number.
 */
export async function caseIdByNumber(db: Db, hospitalId: number, number: string, notFrozen = false): Promise<number | null> {
  let q = db.selectFrom('cases').select('id').where('hospital_id', '=', hospitalId).where('pathology_number', '=', number);
  if (notFrozen) q = q.where('case_type', '<>', 'frozen');
  const row = await q.executeTakeFirst();
  return row ? row.id : null;
}

/** How a request names a case: by its pathology number (what is on the slide label) or by its id. */
export interface CaseRef {
  case_id?: number | null;
  pathology_number?: string | null;
}

/**
 * The case a request names, in the hospital the user works in; null when it names none. A case that does
 * not exist there (or lies outside the request's directories) is a translated 404, never another hospital's case.
 */
export async function namedCase(db: Db, hospitalId: number, ref: CaseRef): Promise<number | null> {
  const number = ref.pathology_number?.trim();
  if (number) {
    const id = await caseIdByNumber(db, hospitalId, number, false);
    if (id === null) throw new AppError(404, 'case.not_found_by_number', { number });
    return id;
  }
  if (!ref.case_id) return null;
  const found = await db.selectFrom('cases').select('id').where('id', '=', ref.case_id).where('hospital_id', '=', hospitalId).executeTakeFirst();
  if (!found) throw new AppError(404, 'case.not_found');
  return found.id;
}
