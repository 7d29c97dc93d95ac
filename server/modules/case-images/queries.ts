import type { Db } from '../../db/connect.js';
import type { DicomFacts } from './dicom-attachment.js';

export const MAX_CASE_IMAGES = 5000;

/** Within `hospitalIds` and the request's row scope (the reader's subspecialty directories). */
export const caseIn = (db: Db, caseId: number, hospitalIds: number[]) =>
  db.selectFrom('cases').select(['id', 'hospital_id']).where('id', '=', caseId).where('hospital_id', 'in', hospitalIds.length ? hospitalIds : [0]).executeTakeFirst();

export const attachmentOf = (db: Db, path: string, userId: number) =>
  db.selectFrom('attachments').select(['id', 'path']).where('path', '=', path).where('user_id', '=', userId).executeTakeFirst();

export const slideOfCase = (db: Db, slideId: number, caseId: number) =>
  db.selectFrom('slides').select('id').where('id', '=', slideId).where('case_id', '=', caseId).executeTakeFirst();

/** Answers null when the path is already tied to a case (the unique index decided, so a race cannot tie it twice). */
export async function insertCaseImage(db: Db, row: { case_id: number; hospital_id: number; path: string; slide_id: number | null; title: string; created_by: number } & Partial<DicomFacts>) {
  const taken = await db.selectFrom('case_images').select('id').where('path', '=', row.path).executeTakeFirst();
  if (taken) return null;
  return db.insertInto('case_images').values({ ...row, created_at: new Date().toISOString() }).returning('id').executeTakeFirstOrThrow()
    .then((r) => r.id, async (err: unknown) => {
      if (await db.selectFrom('case_images').select('id').where('path', '=', row.path).executeTakeFirst()) return null;
      throw err;
    });
}

/** At most MAX_CASE_IMAGES, oldest first: a CT series of a few hundred slices fits many times over. */
export const imagesOfCase = (db: Db, caseId: number) =>
  db.selectFrom('case_images').selectAll().where('case_id', '=', caseId).orderBy('id').limit(MAX_CASE_IMAGES).execute();

export const imageIn = (db: Db, id: number, hospitalIds: number[]) =>
  db.selectFrom('case_images').selectAll().where('id', '=', id).where('hospital_id', 'in', hospitalIds.length ? hospitalIds : [0]).executeTakeFirst();
