import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { shiftDay, shiftDayBounds } from '../../../src/core/statPeriods.js';

/** Spec §4 report timeout (the timeout statistics' default): three days from registration. */
export const TIMEOUT_HOURS = 72;
/** "About to happen": cases whose timeout falls within this many hours from now. */
export const SOON_HOURS = 24;

const counts = (rows: { key: string | null; n: number | string }[]) =>
  Object.fromEntries(rows.map((r) => [r.key ?? '', Number(r.n)]));

/** The case tiles count only the cases the asker may see: their subspecialty directories (the row scope). */
export interface DashboardAsk { hospitalId: number; userId: number; utcOffset: number; now: Date; can: (permission: string) => boolean }

/**
 * The landing page's tiles (issue 16), each only for whoever may open its list: today's cases (this shift day's
 * registrations) by their phase now, my work lists, cases about to time out, the scanner fleet by state, the upload
 * and conversion queue (for uploaders). Every number is one grouped count in SQL. The case tiles count only the asker's
 * subspecialty directories; the scanner and queue tiles tell nothing of any case and are the hospital's.
 */
export async function dashboard(db: Db, a: DashboardAsk) {
  const out: Record<string, unknown> = {};
  if (a.can('case_view')) {
    const today = shiftDay(a.now, a.utcOffset);
    const { start, end } = shiftDayBounds(today, today, a.utcOffset);
    out.today = {
      day: today,
      phases: counts(await db.selectFrom('cases').select(['main_phase as key', sql<number>`count(*)`.as('n')])
        .where('hospital_id', '=', a.hospitalId).where('registration_at', '>=', start).where('registration_at', '<', end)
        .groupBy('main_phase').execute()),
    };
    const open = db.selectFrom('cases').where('hospital_id', '=', a.hospitalId).where('sign_at', 'is', null).where('main_phase', '<>', 'archive');
    const late = new Date(a.now.getTime() - TIMEOUT_HOURS * 3_600_000).toISOString();
    const soon = new Date(a.now.getTime() - (TIMEOUT_HOURS - SOON_HOURS) * 3_600_000).toISOString();
    const [mine, timeouts] = await Promise.all([
      open.select([
        sql<number>`sum(case when first_doctor = ${a.userId} and main_phase = 'diagnosis' then 1 else 0 end)`.as('to_diagnose'),
        sql<number>`sum(case when allocation_doctor = ${a.userId} and main_phase = 'diagnosis' and first_doctor is null then 1 else 0 end)`.as('to_allocate'),
        sql<number>`sum(case when registration_doctor = ${a.userId} then 1 else 0 end)`.as('registered_open'),
      ]).executeTakeFirstOrThrow(),
      open.select([
        sql<number>`sum(case when registration_at >= ${late} and registration_at < ${soon} then 1 else 0 end)`.as('soon'),
        sql<number>`sum(case when registration_at < ${late} then 1 else 0 end)`.as('over'),
      ]).executeTakeFirstOrThrow(),
    ]);
    out.mine = Object.fromEntries(Object.entries(mine).map(([k, v]) => [k, Number(v ?? 0)]));
    out.timeouts = { soon: Number(timeouts.soon ?? 0), over: Number(timeouts.over ?? 0), hours: TIMEOUT_HOURS, within: SOON_HOURS };
  }
  if (a.can('scanner_operate') || a.can('scan_access')) {
    out.scanners = counts(await db.selectFrom('scanners').select(['status as key', sql<number>`count(*)`.as('n')])
      .where('hospital_id', '=', a.hospitalId).groupBy('status').execute());
  }
  // The upload queue is the uploaders' (technicians, scanner operators: the Uploaded slides list): a doctor or a
  // clinician who only reads slides has no queue to watch.
  if (a.can('slide_upload')) {
    const jobs = counts(await db.selectFrom('jobs').select(['status as key', sql<number>`count(*)`.as('n')])
      .where('hospital_id', '=', a.hospitalId).where('status', 'in', ['queued', 'running']).groupBy('status').execute());
    const unbound = await db.selectFrom('scan_jobs').select(sql<number>`count(*)`.as('n'))
      .where('hospital_id', '=', a.hospitalId).where('bind_status', '=', 'not_bound').executeTakeFirstOrThrow();
    out.uploads = { queued: jobs.queued ?? 0, running: jobs.running ?? 0, not_bound: Number(unbound.n) };
  }
  return out;
}
