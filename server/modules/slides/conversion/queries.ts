import type { Kysely } from 'kysely';
import type { Db } from '../../../db/connect.js';
import type { Database } from '../../../db/schema.js';
import { slideQueue } from '../../areas/queries.js';
import { enqueueJob } from '../../jobs/queries.js';

export const SLIDE_CONVERSION = 'slides.convert';
export const CONVERSION_ATTEMPTS = 3;

export interface ConversionPayload { slideId: number }

/** Queues the conversion of a slide (one live job per slide); inside the bind's transaction when given one. */
export async function enqueueConversion(db: Kysely<Database>, slideId: number, hospitalId: number): Promise<number> {
  return enqueueJob(db, {
    type: SLIDE_CONVERSION, payload: { slideId } satisfies ConversionPayload, maxAttempts: CONVERSION_ATTEMPTS,
    // On its hospital area's queue: converted by the nodes of that area (JOB_QUEUES).
    dedupeKey: `${SLIDE_CONVERSION}:${slideId}`, hospitalId, slideId, queue: await slideQueue(db, slideId),
  });
}

/** What a conversion needs of its slide; undefined when the slide was deleted meanwhile. */
export const conversionSubject = (db: Db, id: number) =>
  db.selectFrom('slides').select(['id', 'hospital_id', 'file_path', 'status', 'vendor', 'format_note', 'area_id']).where('id', '=', id).executeTakeFirst();

/** Progress of a conversion on the slide row, which the slide lists show. */
export async function markProgress(db: Db, id: number, progress: number): Promise<void> {
  await db.updateTable('slides').set({ progress }).where('id', '=', id).where('status', '=', 'converting').execute();
}

/** A slide that cannot be converted now: why, in `format_note` (a code the lists translate). */
export async function markNotConverted(db: Db, id: number, status: 'needs_conversion' | 'error', note: string): Promise<void> {
  await db.updateTable('slides').set({ status, format_note: note, progress: null, updated_at: new Date().toISOString() })
    .where('id', '=', id).where('status', 'in', ['converting', 'needs_conversion']).execute();
}

/** Slides waiting for libvips (installed since): converting again. */
export async function slidesWaitingForVips(db: Db) {
  return db.selectFrom('slides').select(['id', 'hospital_id']).where('format_note', '=', 'vips_missing').execute();
}

export async function markConverting(db: Db, id: number): Promise<void> {
  await db.updateTable('slides').set({ status: 'converting', format_note: null, progress: 0 }).where('id', '=', id).execute();
}

/** Ready slides served from a converted file: their derived file is rebuilt when it is missing. */
export const convertedSlides = (db: Db) =>
  db.selectFrom('slides').select(['id', 'hospital_id', 'file_path']).where('status', '=', 'ready').where('file_path', 'like', '%.tiff').execute();
