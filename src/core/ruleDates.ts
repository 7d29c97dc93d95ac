/**
 * Date arithmetic for rules. json-logic has none, and a rule such as "a batch nears the end of its validity"
 * (produced on + validity days, within 30 days of today) needs it; dates stay text (YYYY-MM-DD) so they compare with
 * `<` like the stored ones. `add_days`: `{ "add_days": [date, days] }` → the date `days` later (negative: earlier);
 * a date-time counts from its day. Anything that is not a date, or days that are not a whole number, gives null,
 * which compares as no date: a rule over a missing date does not fire.
 */
const DAY = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/;
const LIMIT = 100_000; // ± about 270 years: beyond it a "validity" is a mistake, not a date

export function addDays(date: unknown, days: unknown): string | null {
  const m = typeof date === 'string' ? DAY.exec(date) : null;
  const n = typeof days === 'string' && days.trim() !== '' ? Number(days) : days;
  if (!m || typeof n !== 'number' || !Number.isInteger(n) || Math.abs(n) > LIMIT) return null;
  const start = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const back = new Date(start);
  // 2026-02-30 is no date: Date.UTC would roll it into March.
  if (back.getUTCMonth() !== Number(m[2]) - 1 || back.getUTCDate() !== Number(m[3])) return null;
  return new Date(start + n * 86_400_000).toISOString().slice(0, 10);
}

/** The operations this file adds to json-logic (registered by ruleBudget.ts, allowed by ruleOperations.ts). */
export const DATE_OPERATIONS: Record<string, (...args: unknown[]) => unknown> = {
  add_days: (date, days) => addDays(date, days),
};
