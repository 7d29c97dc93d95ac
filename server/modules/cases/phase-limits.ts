import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { getSetting } from '../settings/queries.js';

/**
 * How long a case may stay in each phase of the lab before MissCaseSearch counts it as stuck (spec §2 timeout
 * statistics, §4 timeout words): the setting `case_phase_hours` ({ registration, sample, slide_making, diagnosis },
 * hours), each missing or out-of-range value falling back to its default here.
 */
export const PHASE_HOURS_SETTING = 'case_phase_hours';
export const DEFAULT_PHASE_HOURS = { registration: 24, sample: 48, slide_making: 72, diagnosis: 120 } as const;
export type TimedPhase = keyof typeof DEFAULT_PHASE_HOURS;
export type PhaseHours = Record<TimedPhase, number>;
export const MAX_PHASE_HOURS = 24 * 366;

const valid = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= MAX_PHASE_HOURS;

export async function phaseHours(db: Db): Promise<PhaseHours> {
  const row = await getSetting(db, PHASE_HOURS_SETTING);
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = row ? JSON.parse(row.value) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) stored = parsed as Record<string, unknown>;
  } catch { /* a broken value keeps the defaults */ }
  return Object.fromEntries(Object.entries(DEFAULT_PHASE_HOURS).map(([p, d]) => [p, valid(stored[p]) ? stored[p] : d])) as PhaseHours;
}

/** When a case's current phase began: phase_at, or for cases older than the lifecycle their registration. */
export const phaseSince = sql<string>`coalesce(cases.phase_at, cases.registration_at, cases.created_at)`;

/** Cases past their phase's limit at `now` (archived and filed cases never are), as a WHERE expression. */
export function overdueMatch(limits: PhaseHours, now: Date) {
  return (eb: ExpressionBuilder<Database, 'cases'>) => eb.and([
    eb('cases.archive_status', '<>', 'filed'),
    eb.or(Object.entries(limits).map(([phase, hours]) => eb.and([
      eb('cases.main_phase', '=', phase),
      eb(phaseSince, '<', new Date(now.getTime() - hours * 3_600_000).toISOString()),
    ]))),
  ]);
}

/** The same test for one row as read (the list's "Overdue" column): 1 past its phase's limit, else 0. */
export function isOverdue(row: Record<string, unknown>, limits: PhaseHours, now: Date): 0 | 1 {
  const hours = limits[row.main_phase as TimedPhase];
  const since = (row.phase_at ?? row.registration_at ?? row.created_at) as string | null;
  if (!hours || row.archive_status === 'filed' || !since) return 0;
  return Date.parse(since) < now.getTime() - hours * 3_600_000 ? 1 : 0;
}
