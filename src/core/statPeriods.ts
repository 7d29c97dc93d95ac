/**
 * Statistic periods and the shift day (spec §9): a laboratory's day runs from 06:00 to 06:00 the next morning, so
 * a case registered at 02:00 counts for the day before. Periods are whole shift days in the hospital's local time;
 * the database keeps UTC instants (ISO text), so a period becomes the half-open UTC range [from 06:00, day after
 * `to` 06:00) and a row's shift day is its instant moved by the local offset less six hours.
 */

/** Spec §9: the statistic periods, in the order the period picker lists them. */
export const STAT_PERIODS = [
  'yesterday', 'lastThreeDays', 'lastWeek', 'thisWeek', 'thisMonth', 'lastMonth', 'lastThreeMonths', 'thisSeason', 'lastSeason', 'thisYear', 'lastYear',
] as const;
export type StatPeriod = (typeof STAT_PERIODS)[number];

/** Spec §9: the shift day starts at 06:00. */
export const SHIFT_DAY_START_HOUR = 6;
const SHIFT_MINUTES = SHIFT_DAY_START_HOUR * 60;
const DAY_MS = 86_400_000;

/** Spec §9: the six chart colours, in series order. */
export const CHART_PALETTE = ['#2f7cf6', '#19be6b', '#ff9900', '#ed4014', '#9a66e4', '#2db7f5'] as const;

/** The widest range one request may ask for (a day-by-day chart of more is unreadable; months go up to this). */
export const MAX_RANGE_DAYS = 732;
/** Longer ranges are bucketed by month, shorter ones by shift day. */
export const DAY_BUCKET_MAX_DAYS = 92;

/** UTC offsets run from −12:00 to +14:00. */
export const isUtcOffset = (minutes: number) => Number.isInteger(minutes) && minutes >= -720 && minutes <= 840;

const pad = (n: number) => String(n).padStart(2, '0');
/** A day number (days since 1970-01-01) as YYYY-MM-DD. */
const dayText = (day: number) => {
  const d = new Date(day * DAY_MS);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
};
const dayNumber = (y: number, m: number, d: number) => Math.floor(Date.UTC(y, m, d) / DAY_MS);
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** YYYY-MM-DD → its day number, or null when it is not a real date. */
export function parseDay(text: string): number | null {
  const m = DATE.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const n = dayNumber(y, mo, d);
  return dayText(n) === text ? n : null;
}

/** The shift day (YYYY-MM-DD) an instant belongs to, for a hospital `utcOffset` minutes east of UTC. */
export function shiftDay(at: Date, utcOffset: number): string {
  return dayText(Math.floor((at.getTime() + (utcOffset - SHIFT_MINUTES) * 60_000) / DAY_MS));
}

/** The UTC instants bounding shift days `from`..`to` inclusive: [from 06:00 local, day after `to` 06:00 local). */
export function shiftDayBounds(from: string, to: string, utcOffset: number): { start: string; end: string } {
  const a = parseDay(from);
  const b = parseDay(to);
  if (a === null || b === null) throw new RangeError(`not a date: ${a === null ? from : to}`);
  const at = (day: number) => new Date(day * DAY_MS + (SHIFT_MINUTES - utcOffset) * 60_000).toISOString();
  return { start: at(a), end: at(b + 1) };
}

/** The shift days a period covers when asked at `now` (whole weeks start on Monday, seasons are quarters). */
export function periodDays(period: StatPeriod, now: Date, utcOffset: number): { from: string; to: string } {
  const today = parseDay(shiftDay(now, utcOffset))!;
  const t = new Date(today * DAY_MS);
  const [y, m] = [t.getUTCFullYear(), t.getUTCMonth()];
  const monday = today - ((t.getUTCDay() + 6) % 7);
  const q = Math.floor(m / 3) * 3;
  const span = (a: number, b: number) => ({ from: dayText(a), to: dayText(b) });
  switch (period) {
    case 'yesterday': return span(today - 1, today - 1);
    case 'lastThreeDays': return span(today - 2, today);
    case 'lastWeek': return span(monday - 7, monday - 1);
    case 'thisWeek': return span(monday, today);
    case 'thisMonth': return span(dayNumber(y, m, 1), today);
    case 'lastMonth': return span(dayNumber(y, m - 1, 1), dayNumber(y, m, 0));
    case 'lastThreeMonths': return span(dayNumber(y, m - 3, t.getUTCDate()) + 1, today);
    case 'thisSeason': return span(dayNumber(y, q, 1), today);
    case 'lastSeason': return span(dayNumber(y, q - 3, 1), dayNumber(y, q, 0));
    case 'thisYear': return span(dayNumber(y, 0, 1), today);
    case 'lastYear': return span(dayNumber(y - 1, 0, 1), dayNumber(y, 0, 0));
  }
}

export type Bucket = 'day' | 'month';
export interface StatRange { from: string; to: string; bucket: Bucket; start: string; end: string; days: number }

/** Why a requested range is refused: a message key of the statistics words, or null. */
export type RangeProblem = 'stat.bad_period' | 'stat.bad_date' | 'stat.range_reversed' | 'stat.range_too_long' | 'stat.bad_offset';

/**
 * What a statistics request covers: a named period, or `from`/`to` shift days (both or neither); the bucket is
 * the asked one or follows the length. Anything else is a problem key, never a guess.
 */
export function statRange(q: { period?: string; from?: string; to?: string; bucket?: string; utcOffset: number }, now: Date): StatRange | RangeProblem {
  if (!isUtcOffset(q.utcOffset)) return 'stat.bad_offset';
  let days: { from: string; to: string };
  if (q.from !== undefined || q.to !== undefined) {
    if (q.from === undefined || q.to === undefined) return 'stat.bad_date';
    days = { from: q.from, to: q.to };
  } else {
    const period = q.period ?? 'thisMonth';
    if (!(STAT_PERIODS as readonly string[]).includes(period)) return 'stat.bad_period';
    days = periodDays(period as StatPeriod, now, q.utcOffset);
  }
  const a = parseDay(days.from);
  const b = parseDay(days.to);
  if (a === null || b === null) return 'stat.bad_date';
  if (b < a) return 'stat.range_reversed';
  const count = b - a + 1;
  if (count > MAX_RANGE_DAYS) return 'stat.range_too_long';
  if (q.bucket !== undefined && q.bucket !== 'day' && q.bucket !== 'month') return 'stat.bad_period';
  const bucket: Bucket = (q.bucket as Bucket | undefined) ?? (count > DAY_BUCKET_MAX_DAYS ? 'month' : 'day');
  return { ...days, bucket, days: count, ...shiftDayBounds(days.from, days.to, q.utcOffset) };
}

/** Every bucket key of a range in order (YYYY-MM-DD or YYYY-MM), so days without rows show as zero. */
export function bucketKeys(range: Pick<StatRange, 'from' | 'to' | 'bucket'>): string[] {
  const a = parseDay(range.from)!;
  const b = parseDay(range.to)!;
  const keys: string[] = [];
  for (let d = a; d <= b; d++) {
    const k = range.bucket === 'day' ? dayText(d) : dayText(d).slice(0, 7);
    if (keys[keys.length - 1] !== k) keys.push(k);
  }
  return keys;
}

/**
 * Each bucket of a range with the UTC instants bounding it ([start, end), shift days, a month clipped to the range):
 * counting each bucket as a plain range of the indexed time column is what keeps a year of a million rows fast, and
 * leaves no date arithmetic to either database.
 */
export function bucketBounds(range: Pick<StatRange, 'from' | 'to' | 'bucket'>, utcOffset: number): { key: string; start: string; end: string }[] {
  return bucketKeys(range).map((key) => {
    if (range.bucket === 'day') return { key, ...shiftDayBounds(key, key, utcOffset) };
    const [y, m] = key.split('-').map(Number);
    const first = dayText(Math.max(dayNumber(y, m - 1, 1), parseDay(range.from)!));
    const last = dayText(Math.min(dayNumber(y, m, 0), parseDay(range.to)!));
    return { key, ...shiftDayBounds(first, last, utcOffset) };
  });
}
