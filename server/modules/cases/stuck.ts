import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';

/**
 * MissCaseSearch: cases that have stayed in their phase longer than `hours` (spec §4 timeout words; §2
 * statistics of timeouts), oldest first. A case's phase started at phase_at; cases registered before the
 * lifecycle existed count from their registration. Archived and filed cases are never stuck.
 */
export async function stuckCases(db: Db, hospitalIds: number[], opts: { hours: number; mainPhase?: string; page: number; pageSize: number; now?: Date }) {
  const cutoff = new Date((opts.now ?? new Date()).getTime() - opts.hours * 3_600_000).toISOString();
  const since = sql<string>`coalesce(phase_at, registration_at, created_at)`;
  const base = db.selectFrom('cases')
    .where('hospital_id', 'in', hospitalIds.length ? hospitalIds : [-1])
    .where('main_phase', '<>', 'archive').where('archive_status', '<>', 'filed')
    .where(since, '<', cutoff)
    .$if(Boolean(opts.mainPhase), (q) => q.where('main_phase', '=', opts.mainPhase!));
  const [{ n }, rows] = await Promise.all([
    base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    base.select(['id', 'hospital_id', 'pathology_number', 'case_type', 'patient_name', 'main_phase', 'sub_phase', since.as('phase_since')])
      .orderBy(since).orderBy('id').limit(opts.pageSize).offset((opts.page - 1) * opts.pageSize).execute(),
  ]);
  const total = Number(n);
  const now = (opts.now ?? new Date()).getTime();
  return {
    data: rows.map((r) => ({ ...r, hours_in_phase: Math.floor((now - Date.parse(r.phase_since)) / 3_600_000) })),
    total, current_page: opts.page, per_page: opts.pageSize, total_pages: Math.ceil(total / opts.pageSize),
  };
}
