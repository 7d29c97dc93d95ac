import type { Db } from '../../db/connect.js';
import { ensureQcRow } from '../focus/queries.js';

/**
 * The SQL of slide QC (routes.ts): a slide's QC row, and grading or judging it against the version the user read
 * (optimistic: a row changed since answers 'changed' and nothing is written).
 */

/** The QC row of a slide of the hospital, made when it has none yet; undefined: no such slide there. */
export async function qcRowOf(db: Db, slideId: number, hospitalId: number) {
  const slide = await db.selectFrom('slides').select(['id', 'hospital_id']).where('id', '=', slideId).where('hospital_id', '=', hospitalId).executeTakeFirst();
  if (!slide) return undefined;
  await ensureQcRow(db, slide.id, slide.hospital_id);
  return db.selectFrom('slide_qc').selectAll().where('slide_id', '=', slide.id).executeTakeFirstOrThrow();
}

/** Name, status and case number of each slide, for the QC list's rows (hooks.ts). */
export async function qcSlideFacts(db: Db, slideIds: number[]) {
  if (!slideIds.length) return new Map<number, { name: string; status: string; case_id: number | null; pathology_number: string | null }>();
  const rows = await db.selectFrom('slides').leftJoin('cases', 'cases.id', 'slides.case_id')
    .select(['slides.id', 'slides.name', 'slides.status', 'slides.case_id', 'cases.pathology_number'])
    .where('slides.id', 'in', slideIds).execute();
  return new Map(rows.map((r) => [r.id, { name: r.name, status: r.status, case_id: r.case_id, pathology_number: r.pathology_number }]));
}

export interface Grading {
  row: { id: number; slide_id: number; version: number };
  grade: string; reasons: string | null; remark: string | null; by: number; at: string;
  /** An unqualified grade: the slide's newest scan is flagged for a rescan. */
  rescan: boolean;
}

/** Grades the row at its version; the scan flagged for a rescan (null: none), or 'changed'. */
export async function gradeSlide(db: Db, g: Grading): Promise<{ rescan: number | null } | 'changed'> {
  return db.transaction().execute(async (trx) => {
    const done = await trx.updateTable('slide_qc').set({
      grade: g.grade, reasons: g.reasons, remark: g.remark, qc_by: g.by, qc_at: g.at, version: g.row.version + 1, updated_at: g.at,
    }).where('id', '=', g.row.id).where('version', '=', g.row.version).executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) return 'changed' as const;
    if (!g.rescan) return { rescan: null };
    const scan = await trx.selectFrom('scan_jobs').select('id').where('slide_id', '=', g.row.slide_id).orderBy('id', 'desc').executeTakeFirst();
    if (scan) await trx.updateTable('scan_jobs').set({ rescan: 1, updated_at: g.at }).where('id', '=', scan.id).execute();
    return { rescan: scan?.id ?? null };
  });
}

/** Sets the row's evaluation at its version; false: it changed since. */
export async function judgeSlide(db: Db, row: { id: number; version: number }, judge: string, at: string): Promise<boolean> {
  const done = await db.updateTable('slide_qc').set({ judge, version: row.version + 1, updated_at: at })
    .where('id', '=', row.id).where('version', '=', row.version).executeTakeFirst();
  return Number(done.numUpdatedRows) > 0;
}
