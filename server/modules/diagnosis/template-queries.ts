import type { Static } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import type { PhraseBody, TemplateBody } from './bodies.js';

/**
 * The SQL of diagnostic templates and phrases (template-routes.ts). Neither table is row-scoped: every statement
 * names the hospital, so another hospital's rows are as absent as missing ones.
 */

type Template = Static<typeof TemplateBody>;

/** The hospital's templates, by rank and id (src/core/templateTree.ts builds the tree). */
export const templatesOf = (db: Db, hospitalId: number) =>
  db.selectFrom('diagnosis_templates').selectAll().where('hospital_id', '=', hospitalId).orderBy('rank').orderBy('id').execute();

export const createTemplate = (db: Db, hospitalId: number, t: Template, now: string) =>
  db.insertInto('diagnosis_templates').values({ hospital_id: hospitalId, ...t, parent_id: t.parent_id ?? null, created_at: now, updated_at: now })
    .returningAll().executeTakeFirstOrThrow();

/** Changes one of the hospital's templates; whether there was one. */
export async function updateTemplate(db: Db, hospitalId: number, id: number, change: Partial<Template>, now: string): Promise<boolean> {
  const res = await db.updateTable('diagnosis_templates').set({ ...change, updated_at: now }).where('id', '=', id).where('hospital_id', '=', hospitalId).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Deletes one of the hospital's templates, its children moving up to its parent rather than vanishing; whether there was one. */
export async function deleteTemplate(db: Db, hospitalId: number, id: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('diagnosis_templates').select('parent_id').where('id', '=', id).where('hospital_id', '=', hospitalId).executeTakeFirst();
    if (!row) return false;
    await trx.updateTable('diagnosis_templates').set({ parent_id: row.parent_id }).where('parent_id', '=', id).execute();
    await trx.deleteFrom('diagnosis_templates').where('id', '=', id).execute();
    return true;
  });
}

export const phrasesOf = (db: Db, hospitalId: number) =>
  db.selectFrom('diagnosis_phrases').selectAll().where('hospital_id', '=', hospitalId).orderBy('rank').orderBy('id').execute();

export const createPhrase = (db: Db, hospitalId: number, p: Static<typeof PhraseBody>, now: string) =>
  db.insertInto('diagnosis_phrases').values({ hospital_id: hospitalId, ...p, category: p.category ?? null, created_at: now, updated_at: now }).returningAll().executeTakeFirstOrThrow();

/** Deletes one of the hospital's phrases; whether there was one. */
export async function deletePhrase(db: Db, hospitalId: number, id: number): Promise<boolean> {
  const res = await db.deleteFrom('diagnosis_phrases').where('id', '=', id).where('hospital_id', '=', hospitalId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
