import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';

/**
 * The SQL of the label calls beside the labels resource (label-routes.ts, slide-label-routes.ts): usage counts,
 * the record of labels put on slides, and putting labels on slides or taking them off. `hospitals` is the
 * hospital scope the route worked out (hospital-scope.ts); the handle's row scope narrows the slide tables as ever.
 */

/** Every label with how often it was put on a slide of `hospitalId` in [start, end), in label order. */
export function labelUse(db: Db, hospitalId: number, start: string, end: string) {
  return db.selectFrom('labels')
    .leftJoin('slide_labels as sl', (j) => j.onRef('sl.label_id', '=', 'labels.id')
      .on('sl.hospital_id', '=', hospitalId).on('sl.created_at', '>=', start).on('sl.created_at', '<', end))
    .select(['labels.id', 'labels.name', 'labels.en_name', 'labels.color', sql<number>`count(sl.id)`.as('count')])
    .groupBy(['labels.id', 'labels.name', 'labels.en_name', 'labels.color', 'labels.rank'])
    .orderBy('labels.rank').orderBy('labels.id').execute();
}

/** One page of the labels put on slides of `hospitals`, newest first, and how many there are in all. */
export async function labelRecord(db: Db, hospitals: readonly number[], page: number, size: number) {
  const base = db.selectFrom('slide_labels as sl').where('sl.hospital_id', 'in', [...hospitals]);
  const [{ n }, data] = await Promise.all([
    base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    base.innerJoin('labels', 'labels.id', 'sl.label_id').innerJoin('slides', 'slides.id', 'sl.slide_id').leftJoin('users', 'users.id', 'sl.created_by')
      .select(['sl.id', 'sl.slide_id', 'slides.name as slide_name', 'sl.label_id', 'labels.name as label_name', 'labels.en_name as label_en_name', 'sl.source', 'users.realname as created_by_name', 'sl.created_at'])
      .orderBy('sl.id', 'desc').limit(size).offset((page - 1) * size).execute(),
  ]);
  return { total: Number(n), data };
}

/** A slide of `hospitals` with its case's words (what automatic labelling matches), if there is one. */
export function slideForAutoLabel(db: Db, id: number, hospitals: readonly number[]) {
  return db.selectFrom('slides').leftJoin('cases', 'cases.id', 'slides.case_id')
    .select(['slides.id', 'slides.hospital_id', 'slides.name', 'cases.specimen_name', 'cases.clinical_diagnosis'])
    .where('slides.id', '=', id).where('slides.hospital_id', 'in', [...hospitals])
    .executeTakeFirst();
}

export const labelNames = (db: Db) => db.selectFrom('labels').select(['id', 'name', 'en_name']).execute();

export interface AutoLabelled {
  slide: { id: number; hospital_id: number };
  labels: number[];
  by: { id: number; name: string | null };
  /** The operation log line's request: the labels are written behind a GET, so the route logs it by hand. */
  request: { method: string; path: string; route: string; ip: string };
  at: string;
}

/**
 * Puts on the slide those of `labels` it does not carry yet, with the operation log line, in one transaction;
 * the labels it added.
 */
export async function putAutoLabels(db: Db, a: AutoLabelled): Promise<number[]> {
  return db.transaction().execute(async (trx) => {
    const have = new Set((await trx.selectFrom('slide_labels').select('label_id').where('slide_id', '=', a.slide.id).execute()).map((r) => r.label_id));
    const fresh = a.labels.filter((id) => !have.has(id));
    if (fresh.length) {
      await trx.insertInto('slide_labels').values(fresh.map((label_id) => ({ hospital_id: a.slide.hospital_id, slide_id: a.slide.id, label_id, source: 'auto' as const, created_by: a.by.id, created_at: a.at }))).execute();
      await trx.insertInto('operation_logs').values({
        user_id: a.by.id, username: a.by.name, method: a.request.method, path: a.request.path, route: a.request.route,
        status_code: 200, payload: JSON.stringify({ slide_id: a.slide.id, labels: fresh }), ip: a.request.ip, created_at: a.at, hospital_id: a.slide.hospital_id,
      }).execute();
    }
    return fresh;
  });
}

/** Deletes a label; whether there was one. */
export async function deleteLabel(db: Db, id: number): Promise<boolean> {
  const done = await db.deleteFrom('labels').where('id', '=', id).executeTakeFirst();
  return Number(done.numDeletedRows) > 0;
}

/** Those of `ids` that are slides of `hospitals`. */
export const slidesWithin = (db: Db, ids: number[], hospitals: readonly number[]) =>
  db.selectFrom('slides').select(['id', 'hospital_id']).where('id', 'in', ids).where('hospital_id', 'in', [...hospitals]).execute();

export const labelExists = (db: Db, id: number) => db.selectFrom('labels').select(['id']).where('id', '=', id).executeTakeFirst();

/** The labels a user may choose from when putting one on slides, in label order. */
export const labelChoices = (db: Db) => db.selectFrom('labels').select(['id', 'name', 'en_name', 'color']).orderBy('rank').orderBy('id').limit(1000).execute();

/**
 * Puts the label on those of the slides that do not carry it yet; the slides it was put on. Parallel puts of the
 * same label: the unique (slide, label) index keeps one row, the other insert does nothing.
 */
export async function putLabel(db: Db, labelId: number, slides: { id: number; hospital_id: number }[], by: number, at: string): Promise<number[]> {
  const before = await db.selectFrom('slide_labels').select('slide_id').where('label_id', '=', labelId).where('slide_id', 'in', slides.map((s) => s.id)).execute();
  const have = new Set(before.map((r) => r.slide_id));
  const fresh = slides.filter((s) => !have.has(s.id));
  if (fresh.length) {
    await db.insertInto('slide_labels').values(fresh.map((s) => ({
      hospital_id: s.hospital_id, slide_id: s.id, label_id: labelId, source: 'manual' as const, created_by: by, created_at: at,
    }))).onConflict((oc) => oc.columns(['slide_id', 'label_id']).doNothing()).execute();
  }
  return fresh.map((s) => s.id);
}

/** Takes the label off the slides; how many carried it. */
export async function removeLabel(db: Db, labelId: number, slideIds: number[]): Promise<number> {
  const done = await db.deleteFrom('slide_labels').where('label_id', '=', labelId).where('slide_id', 'in', slideIds).executeTakeFirst();
  return Number(done.numDeletedRows);
}
