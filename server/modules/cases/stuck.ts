import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { overdueMatch, phaseHours, phaseSince } from './phase-limits.js';

/**
 * MissCaseSearch: cases that have stayed in their phase longer than `hours`, or, without `hours`, longer than their
 * phase's own limit (the `case_phase_hours` setting, phase-limits.ts), oldest first (spec §4 timeout words; §2
 * statistics of timeouts). Archived and filed cases are never stuck.
 */
export async function stuckCases(db: Db, hospitalIds: number[], opts: { hours?: number; mainPhase?: string; page: number; pageSize: number; now?: Date }) {
  const now = opts.now ?? new Date();
  const limits = await phaseHours(db);
  const timed = opts.hours === undefined
    ? limits
    : Object.fromEntries(Object.keys(limits).map((p) => [p, opts.hours!])) as typeof limits;
  const base = db.selectFrom('cases')
    .where('hospital_id', 'in', hospitalIds.length ? hospitalIds : [-1])
    .where(overdueMatch(timed, now))
    .$if(Boolean(opts.mainPhase), (q) => q.where('main_phase', '=', opts.mainPhase!));
  const [{ n }, rows] = await Promise.all([
    base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    base.select(['id', 'hospital_id', 'pathology_number', 'case_type', 'patient_name', 'main_phase', 'sub_phase', phaseSince.as('phase_since')])
      .orderBy(phaseSince).orderBy('id').limit(opts.pageSize).offset((opts.page - 1) * opts.pageSize).execute(),
  ]);
  const total = Number(n);
  return {
    data: rows.map((r) => ({ ...r, hours_in_phase: Math.floor((now.getTime() - Date.parse(r.phase_since)) / 3_600_000), limit_hours: timed[r.main_phase as keyof typeof timed] })),
    total, current_page: opts.page, per_page: opts.pageSize, total_pages: Math.ceil(total / opts.pageSize),
    limits,
  };
}
