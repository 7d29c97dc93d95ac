import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

type Db = Kysely<Database>;

/** The slide, if it exists in one of `hospitals` and the request may see it (the row scope). */
export const slideIn = (db: Db, slideId: number, hospitals: number[]) =>
  db.selectFrom('slides').select(['id', 'name']).where('id', '=', slideId).where('hospital_id', 'in', hospitals).executeTakeFirst();

/** The user's own category by id (another user's is as absent as a missing one). */
export const ownCategory = (db: Db, userId: number, categoryId: number) =>
  db.selectFrom('collection_categories').select(['id', 'name']).where('id', '=', categoryId).where('user_id', '=', userId).executeTakeFirst();

/** The user's category with this name, other than `exceptId`. */
export function categoryNamed(db: Db, userId: number, name: string, exceptId?: number) {
  let q = db.selectFrom('collection_categories').select('id').where('user_id', '=', userId).where('name', '=', name);
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  return q.executeTakeFirst();
}

/** A new category of the user's, first in rank; answers its id. */
export async function createCategory(db: Db, userId: number, name: string): Promise<number> {
  const now = new Date().toISOString();
  const { id } = await db.insertInto('collection_categories').values({ user_id: userId, name, rank: 0, created_at: now, updated_at: now })
    .returning('id').executeTakeFirstOrThrow();
  return id;
}

/** The user's favourite of this slide, other than `exceptId`, with its category's name. */
export function collectedAlready(db: Db, userId: number, slideId: number, exceptId?: number) {
  let q = db.selectFrom('collections').leftJoin('collection_categories', 'collection_categories.id', 'collections.category_id')
    .select(['collections.id', 'collection_categories.name as category_name'])
    .where('collections.user_id', '=', userId).where('collections.slide_id', '=', slideId);
  if (exceptId !== undefined) q = q.where('collections.id', '<>', exceptId);
  return q.executeTakeFirst();
}

/** How many favourites each category holds. */
export async function itemCounts(db: Db, categoryIds: number[]): Promise<Map<number, number>> {
  if (!categoryIds.length) return new Map();
  const rows = await db.selectFrom('collections').select(['category_id', sql<number>`count(*)`.as('n')])
    .where('category_id', 'in', categoryIds).groupBy('category_id').execute();
  return new Map(rows.map((r) => [Number(r.category_id), Number(r.n)]));
}

/** What a favourite row shows of its slide: name, case (its number links to it) and patient. */
export async function slideFacts(db: Db, slideIds: number[]) {
  if (!slideIds.length) return new Map<number, { name: string; case_id: number | null; pathology_number: string | null; patient_name: string | null }>();
  const rows = await db.selectFrom('slides').leftJoin('cases', 'cases.id', 'slides.case_id')
    .select(['slides.id', 'slides.name', 'slides.case_id', 'cases.pathology_number', 'cases.patient_name'])
    .where('slides.id', 'in', slideIds).execute();
  return new Map(rows.map((r) => [r.id, { name: r.name, case_id: r.case_id, pathology_number: r.pathology_number, patient_name: r.patient_name }]));
}

export async function categoryNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('collection_categories').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
