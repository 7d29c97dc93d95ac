import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import type { ReportTable } from '../../db/schema/reports.js';
import { AppError } from '../../http/errors.js';
import { caseFieldsFor, reportSnapshot } from '../../../src/core/reportWorkflow.js';
import { addTimeline, type TimelineEntry } from '../cases/lifecycle-queries.js';

type Trx = Kysely<Database>;
export type ReportRow = Selectable<ReportTable>;

/** A report within the hospitals the user may see; a translated 404 otherwise. */
export async function reportInScope(db: Db | Trx, id: number, hospitalIds: number[]): Promise<ReportRow> {
  const row = await db.selectFrom('reports').selectAll().where('id', '=', id).where('hospital_id', 'in', hospitalIds.length ? hospitalIds : [-1]).executeTakeFirst();
  if (!row) throw new AppError(404, 'diagnosis.report_not_found');
  return row;
}

export const reportsOfCase = (db: Db | Trx, caseId: number) =>
  db.selectFrom('reports').selectAll().where('case_id', '=', caseId).orderBy('id').execute();

/** The case's own (not supplementary) report, if any. */
export const mainReportOf = (db: Db | Trx, caseId: number) =>
  db.selectFrom('reports').selectAll().where('case_id', '=', caseId).where('report_type', '=', 1).orderBy('id', 'desc').executeTakeFirst();

/**
 * Writes a report step: only if nobody changed the report since it was read (its version; else 409 naming the
 * version now stored, nothing written), then the case's copy of its latest report (spec §4 status) and, for the
 * case's own report, the case fields that follow it. `version = version + 1` on the case too, so a lab transition
 * that read the case before this step is refused rather than overwriting it.
 */
export async function writeReport(trx: Trx, current: ReportRow, patch: Updateable<ReportTable>, now: string): Promise<ReportRow> {
  const res = await trx.updateTable('reports').set({ ...patch, version: current.version + 1, updated_at: now })
    .where('id', '=', current.id).where('version', '=', current.version).executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) {
    const stored = await trx.selectFrom('reports').select('version').where('id', '=', current.id).executeTakeFirst();
    throw new AppError(409, 'diagnosis.changed', { version: stored?.version ?? current.version });
  }
  const row = await trx.selectFrom('reports').selectAll().where('id', '=', current.id).executeTakeFirstOrThrow();
  await syncCase(trx, row, now);
  return row;
}

/** The case's fields that mirror its reports: the latest report (spec §4), the main report's stage, the supplementary list (markers). */
export async function syncCase(trx: Trx, report: ReportRow, now: string): Promise<void> {
  const all = await reportsOfCase(trx, report.case_id);
  const latest = all[all.length - 1];
  const main = [...all].reverse().find((r) => r.report_type === 1);
  const supplementary = all.filter((r) => r.report_type === 2);
  const lastSupplement = supplementary[supplementary.length - 1];
  await trx.updateTable('cases').set((eb) => ({
    latest_report: JSON.stringify(reportSnapshot(latest)),
    ...(main ? { ...caseFieldsFor(main), sign_at: main.sign_at, doctor_id: main.first_doctor } : {}),
    has_supplementary: supplementary.length ? 1 : 0,
    report_type: latest.report_type,
    supplement_type: lastSupplement ? lastSupplement.supplement_type : null,
    report_supplementary: JSON.stringify(supplementary.map((r) => ({ id: r.id, supplement_type: r.supplement_type, special_audit_result: r.sub_phase }))),
    version: eb('version', '+', 1),
    updated_at: now,
  })).where('id', '=', report.case_id).execute();
}

/** The user names of doctors, for the editor and the report. */
export async function userNames(db: Db, ids: (number | null)[]): Promise<Record<number, string>> {
  const wanted = [...new Set(ids.filter((i): i is number => i != null))];
  if (!wanted.length) return {};
  const rows = await db.selectFrom('users').select(['id', 'realname', 'name']).where('id', 'in', wanted).execute();
  return Object.fromEntries(rows.map((u) => [u.id, u.realname || u.name]));
}

/** Sets or clears the case's urgent flag (expedite_status), with its timeline line, in one transaction. */
export async function setUrgent(db: Db, c: { id: number; hospital_id: number }, urgent: boolean, actor: TimelineEntry['actor'], now: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('cases').set((eb) => ({ expedite_status: urgent ? 1 : 0, version: eb('version', '+', 1), updated_at: now })).where('id', '=', c.id).execute();
    await addTimeline(trx, c.hospital_id, c.id, { action: urgent ? 'urgent_on' : 'urgent_off', actor }, now);
  });
}

/** The Word file (base64) of one of the hospital's report templates; undefined: no such template there. */
export const wordTemplateOf = (db: Db, id: number, hospitalId: number) =>
  db.selectFrom('report_templates').select(['word_file']).where('id', '=', id).where('hospital_id', '=', hospitalId).executeTakeFirst();
