/**
 * Date and time as the spec shows them (§9: `YYYY-MM-DD HH:mm:ss`, whatever the UI language), in the browser's
 * time zone. Forms store a date-time as ISO text in UTC (what `format: date-time` validates); a date as `YYYY-MM-DD`.
 */
const two = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of a local date. */
export const formatDate = (d: Date): string => `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;

/** `HH:mm:ss` (24 hours) of a local time. */
export const formatTime = (d: Date): string => `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;

/** `YYYY-MM-DD HH:mm:ss` of a local date-time. */
export const formatDateTime = (d: Date): string => `${formatDate(d)} ${formatTime(d)}`;

/** Local midnight of a typed `YYYY-MM-DD` (also `YYYY/M/D`), or null when it is not a real day. */
export function parseDate(text: string | undefined): Date | null {
  const m = text?.trim().match(/^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(y, mo - 1, d);
  // 2026-02-30 rolls over to March: not a day anyone meant.
  return date.getFullYear() === y && date.getMonth() === mo - 1 && date.getDate() === d ? date : null;
}

export interface TimeOfDay { hours: number; minutes: number; seconds: number }

/** A typed `HH:mm` or `HH:mm:ss` (24 hours), or null. */
export function parseTime(text: string | undefined): TimeOfDay | null {
  const m = text?.trim().match(/^(\d{1,2}):(\d{2})(?::(\d{2}))?$/);
  if (!m) return null;
  const [hours, minutes, seconds] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  return hours < 24 && minutes < 60 && seconds < 60 ? { hours, minutes, seconds } : null;
}

/** The day of `date` at `time` (midnight without one), local. */
export function atTime(date: Date, time: TimeOfDay | Date | null | undefined): Date {
  const t = time instanceof Date ? { hours: time.getHours(), minutes: time.getMinutes(), seconds: time.getSeconds() } : time;
  return new Date(date.getFullYear(), date.getMonth(), date.getDate(), t?.hours ?? 0, t?.minutes ?? 0, t?.seconds ?? 0);
}

/** A stored date-time (ISO text) as a local Date, or null when empty or unreadable. */
export function fromStored(value: unknown): Date | null {
  if (typeof value !== 'string' || !value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * A stored date-time (ISO text: UTC, an offset, or a scanner's wall-clock time without one) as the spec shows it,
 * local; text that is no date-time is shown as it is, and nothing as null.
 */
export function showStored(value: unknown): string | null {
  // Only ISO text: Date() also reads loose text ("sometime in 2017" → 1 January).
  const d = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) ? fromStored(value) : null;
  return d ? formatDateTime(d) : typeof value === 'string' && value ? value : null;
}

/** A local Date as stored (ISO text in UTC, whole seconds). */
export const toStored = (d: Date): string => new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString();

/**
 * A wall-clock date-time as forms without a time zone keep it (a specimen's times, a range's ends:
 * `YYYY-MM-DDTHH:mm[:ss]` or with a space; a day alone is midnight) as a local Date; ISO text with a zone is read
 * as that instant. Null when empty or unreadable.
 */
export function fromWallClock(value: unknown): Date | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  const text = value.trim();
  if (/(Z|[+-]\d{2}:?\d{2})$/.test(text)) return fromStored(text);
  const m = text.match(/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/);
  const day = m ? parseDate(`${m[1]}-${m[2]}-${m[3]}`) : null;
  if (!m || !day) return null;
  const time = m[4] === undefined ? null : parseTime(`${m[4]}:${m[5]}:${m[6] ?? '00'}`);
  return m[4] !== undefined && !time ? null : atTime(day, time);
}

/** A local Date as wall-clock text, `YYYY-MM-DDTHH:mm:ss` (what fromWallClock reads and the lab bodies take). */
export const toWallClock = (d: Date): string => `${formatDate(d)}T${formatTime(d)}`;
