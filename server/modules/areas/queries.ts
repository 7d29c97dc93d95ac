import type { Kysely } from 'kysely';
import { areaJobQueue } from '../../../src/core/hospitalArea.js';
import type { Database } from '../../db/schema.js';
import { DEFAULT_QUEUE } from '../jobs/queues.js';

/** An area's storage location, for opening its storage (storage/area-storages.ts). */
export const areaLocation = (db: Kysely<Database>, id: number) =>
  db.selectFrom('hospital_areas').select(['id', 'storage_url']).where('id', '=', id).executeTakeFirst();

/** The area a hospital's new slides go to, with its location; undefined: the installation's default storage. */
export const hospitalAreaLocation = (db: Kysely<Database>, hospitalId: number) =>
  db.selectFrom('hospitals').innerJoin('hospital_areas', 'hospital_areas.id', 'hospitals.area_id')
    .select(['hospital_areas.id', 'hospital_areas.storage_url']).where('hospitals.id', '=', hospitalId).executeTakeFirst();

/**
 * Whether any slide is stored in one of the areas (its location may then not change, nor the area go): any hospital's,
 * so outside the request's row scope (`withoutPlugins`); it answers only whether.
 */
export async function areaHoldsSlides(db: Kysely<Database>, ids: number[]): Promise<boolean> {
  if (!ids.length) return false;
  return !!(await db.withoutPlugins().selectFrom('slides').select('id').where('area_id', 'in', ids).limit(1).executeTakeFirst());
}

/** Whether any hospital belongs to one of the areas. */
export async function areaHasHospitals(db: Kysely<Database>, ids: number[]): Promise<boolean> {
  if (!ids.length) return false;
  return !!(await db.selectFrom('hospitals').select('id').where('area_id', 'in', ids).limit(1).executeTakeFirst());
}

/** The names of areas by id (the hospitals list shows each hospital's area by name). */
export async function areaNames(db: Kysely<Database>, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('hospital_areas').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The area a hospital belongs to now (a write compares with it). */
export const hospitalArea = (db: Kysely<Database>, hospitalId: number) =>
  db.selectFrom('hospitals').select('area_id').where('id', '=', hospitalId).executeTakeFirst();

/** Whether the area exists (a hospital is assigned only to one that does). */
export const areaExists = async (db: Kysely<Database>, id: number) =>
  !!(await db.selectFrom('hospital_areas').select('id').where('id', '=', id).executeTakeFirst());

/**
 * The job queue of a slide's work (ingest, conversion, focus check): its hospital area's first queue, so the nodes that
 * run it are the area's (JOB_QUEUES); a slide of no area, the default queue.
 */
export async function slideQueue(db: Kysely<Database>, slideId: number): Promise<string> {
  // Only the queue name is read: outside the row scope, as the slide being queued may sit in a directory the caller's scope leaves out.
  const row = await db.withoutPlugins().selectFrom('slides').innerJoin('hospital_areas', 'hospital_areas.id', 'slides.area_id')
    .select('hospital_areas.queue_names').where('slides.id', '=', slideId).executeTakeFirst();
  return row ? areaJobQueue(row.queue_names) : DEFAULT_QUEUE;
}
