import dayjs, { type Dayjs } from 'dayjs';

/** Spec §9 formats. */
export const DATE_FORMAT = 'YYYY-MM-DD';
export const DATETIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const DAY_START = '00:00:00';
export const DAY_END = '23:59:59';
/** Spec §9: the picker's change events are debounced 10 ms. */
export const PICKER_DEBOUNCE_MS = 10;

/** Spec §5 shortcuts, in the order the picker lists them. */
export const DATE_SHORTCUTS = [
  'today', 'yesterday', 'lastThreeDays', 'thisWeek', 'thisMonth', 'previousMonth', 'thisQuarter', 'previousQuarter', 'thisYear', 'previousYear',
] as const;
export type DateShortcut = (typeof DATE_SHORTCUTS)[number];
export type RangeKind = 'daterange' | 'datetimerange';

/** Monday of the week holding `d` (spec §5: the week starts on Monday). */
const startOfWeek = (d: Dayjs) => d.subtract((d.day() + 6) % 7, 'day').startOf('day');
const startOfQuarter = (d: Dayjs) => d.month(Math.floor(d.month() / 3) * 3).startOf('month');

function bounds(key: DateShortcut, now: Dayjs): [Dayjs, Dayjs] {
  const today = now.startOf('day');
  switch (key) {
    case 'today': return [today, today];
    case 'yesterday': return [today.subtract(1, 'day'), today.subtract(1, 'day')];
    case 'lastThreeDays': return [today.subtract(2, 'day'), today];
    case 'thisWeek': return [startOfWeek(today), startOfWeek(today).add(6, 'day')];
    case 'thisMonth': return [today.startOf('month'), today.endOf('month')];
    case 'previousMonth': {
      const m = today.startOf('month').subtract(1, 'month');
      return [m, m.endOf('month')];
    }
    case 'thisQuarter': {
      const q = startOfQuarter(today);
      return [q, q.add(2, 'month').endOf('month')];
    }
    case 'previousQuarter': {
      const q = startOfQuarter(today).subtract(3, 'month');
      return [q, q.add(2, 'month').endOf('month')];
    }
    case 'thisYear': return [today.startOf('year'), today.endOf('year')];
    case 'previousYear': {
      const y = today.startOf('year').subtract(1, 'year');
      return [y, y.endOf('year')];
    }
  }
}

/**
 * The range a shortcut stands for on `now`'s calendar day. Whole days: a daterange gives
 * YYYY-MM-DD ends, a datetimerange 00:00:00 on the first day to 23:59:59 on the last (spec §5).
 */
export function shortcutRange(key: DateShortcut, now: Date, kind: RangeKind = 'daterange'): [string, string] {
  const [from, to] = bounds(key, dayjs(now));
  if (kind === 'daterange') return [from.format(DATE_FORMAT), to.format(DATE_FORMAT)];
  return [`${from.format(DATE_FORMAT)} ${DAY_START}`, `${to.format(DATE_FORMAT)} ${DAY_END}`];
}

/**
 * What a range input emits (spec §5): both ends filled → the pair; both empty → an empty array;
 * one end only → nothing yet (undefined). A datetimerange end typed as a bare date gets the
 * default times 00:00:00 and 23:59:59.
 */
export function rangeValue(from: string | null | undefined, to: string | null | undefined, kind: RangeKind = 'daterange'): string[] | undefined {
  const a = (from ?? '').trim();
  const b = (to ?? '').trim();
  if (!a && !b) return [];
  if (!a || !b) return undefined;
  if (kind === 'datetimerange') return [withTime(a, DAY_START), withTime(b, DAY_END)];
  return [a, b];
}

/** `2026-03-01` → `2026-03-01 00:00:00`; `2026-03-01T08:30` (an HTML input) → `2026-03-01 08:30:00`. */
export function withTime(text: string, fallback: string): string {
  const t = text.replace('T', ' ');
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) return `${t} ${fallback}`;
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(t)) return `${t}:${fallback === DAY_END ? '59' : '00'}`;
  return t;
}
