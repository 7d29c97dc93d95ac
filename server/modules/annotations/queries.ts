import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database, SlideAnnotationTable } from '../../db/schema.js';

export type AnnotationRow = Omit<SlideAnnotationTable, 'id' | 'version'> & { id: number; version: number };
export type NewAnnotation = Omit<AnnotationRow, 'id' | 'version'>;

/** The slide's hospital and what shapes are checked against, if the slide is in one of `hospitalIds`. */
export async function slideForAnnotations(db: Db, slideId: number, hospitalIds: number[]) {
  return db.selectFrom('slides').select(['id', 'hospital_id', 'width', 'height', 'mpp'])
    .where('id', '=', slideId).where('hospital_id', 'in', hospitalIds.length ? hospitalIds : [0]).executeTakeFirst();
}

export async function annotationsOf(db: Db, slideId: number): Promise<AnnotationRow[]> {
  return db.selectFrom('slide_annotations').selectAll().where('slide_id', '=', slideId).orderBy('id').execute();
}

export async function annotationById(db: Db, id: number): Promise<AnnotationRow | undefined> {
  return db.selectFrom('slide_annotations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** All or nothing: an import that fails half-way leaves no half of it behind. */
export async function insertAnnotations(db: Db, rows: NewAnnotation[]): Promise<number[]> {
  if (!rows.length) return [];
  return db.transaction().execute(async (trx: Transaction<Database>) => {
    const ids: number[] = [];
    // In slices: SQLite allows 32,766 bound values a statement, and a row binds 16.
    for (let i = 0; i < rows.length; i += 500) {
      const got = await trx.insertInto('slide_annotations').values(rows.slice(i, i + 500)).returning('id').execute();
      ids.push(...got.map((r) => r.id));
    }
    return ids;
  });
}

/**
 * Writes the change only if the row is still at `version` (compare-and-set): of two concurrent edits one wins
 * and the other is told, instead of silently replacing it. Answers whether it was written.
 */
export async function updateAnnotation(db: Kysely<Database>, id: number, version: number, change: Partial<NewAnnotation>): Promise<boolean> {
  const res = await db.updateTable('slide_annotations').set({ ...change, version: version + 1 })
    .where('id', '=', id).where('version', '=', version).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function deleteAnnotation(db: Db, id: number): Promise<void> {
  await db.deleteFrom('slide_annotations').where('id', '=', id).execute();
}
