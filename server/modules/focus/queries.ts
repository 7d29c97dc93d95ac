import type { Kysely } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { slideQueue } from '../areas/queries.js';
import { enqueueJob } from '../jobs/queries.js';
import { getSetting } from '../settings/queries.js';
import type { FocusResult } from './analyse.js';

export const FOCUS_JOB = 'slides.focus';
export const FOCUS_ATTEMPTS = 3;
/** The setting holding `blur_share_limit`: above this share of blurred tissue, QC starts with "blurry image". */
export const FOCUS_SETTING = 'qc_focus';
export const DEFAULT_BLUR_SHARE_LIMIT = 0.1;

export interface FocusPayload { slideId: number }

/**
 * Queues the focus check of a ready slide (one live job per slide) and gives the slide its QC row, so the QC list
 * shows it at once; inside the caller's transaction when given one.
 */
export async function enqueueFocusCheck(db: Kysely<Database>, slideId: number, hospitalId: number): Promise<number> {
  await ensureQcRow(db, slideId, hospitalId);
  return enqueueJob(db, {
    type: FOCUS_JOB, payload: { slideId } satisfies FocusPayload, maxAttempts: FOCUS_ATTEMPTS,
    dedupeKey: `${FOCUS_JOB}:${slideId}`, hospitalId, slideId, queue: await slideQueue(db, slideId),
  });
}

export async function blurShareLimit(db: Db): Promise<number> {
  const row = await getSetting(db, FOCUS_SETTING);
  try {
    const v = row ? (JSON.parse(row.value) as { blur_share_limit?: unknown }).blur_share_limit : undefined;
    return typeof v === 'number' && v >= 0 && v <= 1 ? v : DEFAULT_BLUR_SHARE_LIMIT;
  } catch {
    return DEFAULT_BLUR_SHARE_LIMIT;
  }
}

/**
 * Stores a slide's focus map and its score on the slide's QC row (created here when the slide has none). The
 * reasons are suggested ("blurry") while nobody has graded the slide; a grade already given is left alone.
 */
export async function saveFocus(db: Db, slide: { id: number; hospital_id: number }, r: FocusResult, ms: number, limit: number): Promise<void> {
  const now = new Date().toISOString();
  const suggested = r.blurShare > limit ? 'blurry' : null;
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('slide_focus').where('slide_id', '=', slide.id).execute();
    await trx.insertInto('slide_focus').values({
      slide_id: slide.id, level: r.level, cols: r.cols, rows: r.rows, cell_width: r.cellWidth, cell_height: r.cellHeight,
      threshold: r.threshold, tissue_cells: r.tissueCells, blurred_cells: r.blurredCells, blur_share: r.blurShare,
      map: Buffer.from(r.map).toString('base64'), ms, created_at: now,
    }).execute();
    await ensureQcRow(trx, slide.id, slide.hospital_id);
    await trx.updateTable('slide_qc').set({ blur_share: r.blurShare, focus_status: 'done', suggested_reasons: suggested, updated_at: now })
      .where('slide_id', '=', slide.id).execute();
  });
}

export async function markFocusFailed(db: Db, slideId: number): Promise<void> {
  await db.updateTable('slide_qc').set({ focus_status: 'failed', updated_at: new Date().toISOString() }).where('slide_id', '=', slideId).execute();
}

/** The QC row of a slide, made once (the unique index on slide_id keeps it one under races). */
export async function ensureQcRow(db: Kysely<Database>, slideId: number, hospitalId: number): Promise<void> {
  const now = new Date().toISOString();
  await db.insertInto('slide_qc').values({ slide_id: slideId, hospital_id: hospitalId, focus_status: 'pending', version: 0, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('slide_id').doNothing()).execute();
}

export const focusOf = (db: Db, slideId: number) =>
  db.selectFrom('slide_focus').selectAll().where('slide_id', '=', slideId).executeTakeFirst();
