import type { Kysely, Updateable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { CaseTable, Database } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';

type Trx = Kysely<Database>;

/**
 * The case as a transition reads it, within `hospitalIds` (the list scope) and the request's row scope (its
 * subspecialty directories); a translated 404 otherwise, the same for a forged id as for a missing one.
 */
export async function caseInScope(db: Db, id: number, hospitalIds: number[]) {
  const row = await db.selectFrom('cases').selectAll().where('id', '=', id).where('hospital_id', 'in', hospitalIds.length ? hospitalIds : [-1])
    .executeTakeFirst();
  if (!row) throw new AppError(404, 'case.not_found');
  return row;
}
export type CaseRow = Awaited<ReturnType<typeof caseInScope>>;

/**
 * The one write that moves a case: only when its version is still the one the transition read. Another
 * user's transition in between (on any process, either database) leaves zero rows updated, and this one is
 * refused with 409 before anything else is written. It is the transaction's first statement: on SQLite a
 * transaction that starts by writing waits for the write lock instead of failing on a stale read snapshot.
 */
export async function moveCase(trx: Trx, current: CaseRow, patch: Updateable<CaseTable>, now: string): Promise<void> {
  const res = await trx.updateTable('cases').set({ ...patch, version: current.version + 1, updated_at: now })
    .where('id', '=', current.id).where('version', '=', current.version).executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw new AppError(409, 'lab.changed');
}

export interface TimelineEntry {
  action: string;
  actor: { id: number; realname: string; name: string };
  from?: { main_phase: string; sub_phase: string | null };
  to?: { main_phase: string; sub_phase: string | null };
  detail?: unknown;
}

/** Who did what to the case, when: one row per transition, written in the transition's transaction. */
export async function addTimeline(trx: Trx, hospitalId: number, caseId: number, e: TimelineEntry, now: string): Promise<void> {
  await trx.insertInto('case_timeline').values({
    hospital_id: hospitalId, case_id: caseId, action: e.action,
    from_phase: e.from?.main_phase ?? null, to_phase: e.to?.main_phase ?? null,
    from_sub_phase: e.from?.sub_phase ?? null, to_sub_phase: e.to?.sub_phase ?? null,
    actor_id: e.actor.id, actor_name: e.actor.realname || e.actor.name,
    detail: e.detail === undefined ? null : JSON.stringify(e.detail), created_at: now,
  }).execute();
}

export const timelineOf = (db: Db, caseId: number) =>
  db.selectFrom('case_timeline').selectAll().where('case_id', '=', caseId).orderBy('id').execute()
    .then((rows) => rows.map((r) => ({ ...r, detail: r.detail ? JSON.parse(r.detail) as unknown : null })));

export const specimensOf = (db: Db | Trx, caseId: number) =>
  db.selectFrom('case_specimens').selectAll().where('case_id', '=', caseId).orderBy('seq').execute();

export const blocksOf = (db: Db | Trx, caseId: number) =>
  db.selectFrom('case_blocks').selectAll().where('case_id', '=', caseId).orderBy('id').execute();

export const openOrdersOf = (db: Db | Trx, caseId: number) =>
  db.selectFrom('technical_orders').selectAll().where('case_id', '=', caseId).where('status', '=', 'open').orderBy('id').execute();

/** The case's orders with what the lists show of them: the reagent's name and who ordered. */
export const ordersOf = (db: Db, caseId: number) =>
  db.selectFrom('technical_orders')
    .leftJoin('reagents', 'reagents.id', 'technical_orders.reagent_id')
    .leftJoin('users', 'users.id', 'technical_orders.ordered_by')
    .selectAll('technical_orders')
    .select(['reagents.name as reagent_name', 'users.realname as ordered_by_realname', 'users.name as ordered_by_name'])
    .where('technical_orders.case_id', '=', caseId).orderBy('technical_orders.id').execute();

/** Reagents a special examination may name (enabled ones, in their configured order): the order form's choices. */
export const orderReagents = (db: Db) =>
  db.selectFrom('reagents').select(['id', 'name', 'type', 'clone_no']).where('status', '=', 1).orderBy('rank').orderBy('id').execute();

export const sectionsOfBlocks = (db: Db, caseId: number) =>
  db.selectFrom('slide_sections').select(['id', 'block_id', 'block_number', 'section_number', 'stain', 'label', 'slide_id'])
    .where('case_id', '=', caseId).orderBy('block_number').orderBy('section_number').execute();

/** The case's digital slides (bound to the case, and to a glass slide when one names them: slide_sections.slide_id). */
export const slidesOfCase = (db: Db, caseId: number) =>
  db.selectFrom('slides').select(['id', 'name', 'status', 'vendor', 'scan_at', 'objective_power', 'created_at'])
    .where('case_id', '=', caseId).orderBy('id').execute();

/** The case's reports (its report and supplementary ones) with where each stands; the row scope decides which a user reads. */
export const reportsOfCase = (db: Db, caseId: number) =>
  db.selectFrom('reports').select(['id', 'report_type', 'supplement_type', 'sub_phase', 'is_draft', 'release_status', 'diagnosis', 'issue_at', 'sign_at', 'print_at', 'deliver_at', 'created_at'])
    .where('case_id', '=', caseId).orderBy('id').execute();

/** The hospital a case belongs to, by name in both languages. */
export const hospitalOf = (db: Db, hospitalId: number) =>
  db.selectFrom('hospitals').select(['name', 'en_name']).where('id', '=', hospitalId).executeTakeFirst();

/** Is `userId` a first-diagnosis doctor (role primary_doctor) of the hospital, enabled? */
export async function isPrimaryDoctorOf(db: Db, userId: number, hospitalId: number): Promise<boolean> {
  const row = await db.selectFrom('users')
    .innerJoin('user_roles', 'user_roles.user_id', 'users.id')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .innerJoin('user_hospitals', 'user_hospitals.user_id', 'users.id')
    .select('users.id')
    .where('users.id', '=', userId).where('users.status', '=', 1).where('users.locked', '=', 0).where('roles.identification', '=', 'primary_doctor').where('user_hospitals.hospital_id', '=', hospitalId)
    .executeTakeFirst();
  return Boolean(row);
}
