import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { decodeUid } from '../../../src/core/dicomUid.js';
import { likePattern, type QidoQuery } from '../../../src/core/qidoQuery.js';
import { isPostgres, type Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';

/**
 * What DICOMweb reads of the slides and cases tables, through the request's row-scoped handle: a slide of another
 * hospital, or of a case outside the user's directories, is never among the rows (server/db/row-scope.ts). Only
 * slides that are ready (read, converted) are a series.
 */

export interface SeriesRow {
  id: number;
  case_id: number | null;
  file_path: string;
  name: string;
}

type Eb = ExpressionBuilder<Database, 'slides' | 'cases'>;

/** The slides a query's keys narrow to: UIDs decoded to ids (a UID not ours matches nothing), patient and order by the case. */
function matching(eb: Eb, q: QidoQuery, namespace: string, pg: boolean): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [eb('slides.status', '=', 'ready')];
  if (!q.possible) parts.push(sql<SqlBool>`1 = 0`);
  if (q.studyUids) {
    const studies = q.studyUids.map((u) => decodeUid(namespace, u));
    const cases = studies.filter((s) => s?.kind === 'caseStudy').map((s) => s!.id);
    const lone = studies.filter((s) => s?.kind === 'slideStudy').map((s) => s!.id);
    parts.push(eb.or([
      ...(cases.length ? [eb('slides.case_id', 'in', cases)] : []),
      ...(lone.length ? [eb.and([eb('slides.id', 'in', lone), eb('slides.case_id', 'is', null)])] : []),
      sql<SqlBool>`1 = 0`,
    ]));
  }
  const slideIds = (uids: string[] | undefined, kind: 'series' | 'instance') => {
    if (!uids) return;
    const ids = uids.map((u) => decodeUid(namespace, u)).filter((p) => p?.kind === kind).map((p) => p!.id);
    parts.push(ids.length ? eb('slides.id', 'in', ids) : sql<SqlBool>`1 = 0`);
  };
  slideIds(q.seriesUids, 'series');
  slideIds(q.sopUids, 'instance');
  const text = (column: string, value: string, anyCase = false): Expression<SqlBool> => {
    const pattern = likePattern(value);
    if (pattern === null) return eb(column as never, '=', value as never);
    const keyword = sql.raw(pg && anyCase ? 'ILIKE' : 'LIKE');
    return sql<SqlBool>`${sql.ref(column)} ${keyword} ${pattern} ESCAPE '\\'`;
  };
  if (q.patientId !== undefined) parts.push(eb.or([text('cases.admission_number', q.patientId), text('cases.outpatient_number', q.patientId)]));
  if (q.accessionNumber !== undefined) parts.push(text('cases.pathology_number', q.accessionNumber));
  if (q.patientName !== undefined) parts.push(text('cases.patient_name', q.patientName, true));
  return eb.and(parts);
}

const base = (db: Db) => db.selectFrom('slides').leftJoin('cases', 'cases.id', 'slides.case_id');

/** A study: its case (null: a slide of no case, its own study), its first slide and how many slides (series) it has. */
export interface StudyRow {
  case_id: number | null;
  first_slide: number;
  series: number;
}

/** One page of studies, in the order they first had a slide. */
export async function studyPage(db: Db, q: QidoQuery, namespace: string): Promise<StudyRow[]> {
  const pg = isPostgres(db);
  // A slide of no case groups alone: its negative id stands for the case it lacks.
  const study = sql<number>`coalesce(${sql.ref('slides.case_id')}, 0 - ${sql.ref('slides.id')})`;
  const rows = await base(db)
    .select((eb) => [eb.fn.max('slides.case_id').as('case_id'), eb.fn.min('slides.id').as('first_slide'), eb.fn.count<number | string>('slides.id').as('series')])
    .where((eb) => matching(eb as unknown as Eb, q, namespace, pg))
    .groupBy(study).orderBy((eb) => eb.fn.min('slides.id')).limit(q.limit).offset(q.offset).execute();
  return rows.map((r) => ({ case_id: r.case_id === null ? null : Number(r.case_id), first_slide: Number(r.first_slide), series: Number(r.series) }));
}

/** One page of series (slides), by id. */
export async function seriesPage(db: Db, q: QidoQuery, namespace: string, limit = q.limit, offset = q.offset): Promise<SeriesRow[]> {
  const pg = isPostgres(db);
  return base(db).select(['slides.id', 'slides.case_id', 'slides.file_path', 'slides.name'])
    .where((eb) => matching(eb as unknown as Eb, q, namespace, pg))
    .orderBy('slides.id').limit(limit).offset(offset).execute();
}

/** The slide a Series Instance UID's id names, when the request may see it and it is ready. */
export async function seriesSlide(db: Db, id: number): Promise<SeriesRow | undefined> {
  return db.selectFrom('slides').select(['id', 'case_id', 'file_path', 'name'])
    .where('id', '=', id).where('status', '=', 'ready').executeTakeFirst();
}
