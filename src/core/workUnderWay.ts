/**
 * A list whose rows show work under way (a slide converting: a number in a `progress` cell) must see the bar move
 * and the row become ready without a manual refresh. Where its live source announces that work (slide lists:
 * `live: "slide_jobs"`, the jobs' pushes over the realtime channel) the pushes do it, and the list asks for its
 * rows again only while the channel is down, every WORK_FALLBACK_POLL_MS; a list of work without such a source asks
 * every WORK_POLL_MS. Either stops asking once no row has work left.
 */
export const WORK_POLL_MS = 2000;
export const WORK_FALLBACK_POLL_MS = 10_000;

/** How often a list showing work asks again: never while pushes announce it. */
export function workPollMs(pushed: boolean, channelUp: boolean): number | null {
  if (!pushed) return WORK_POLL_MS;
  return channelUp ? null : WORK_FALLBACK_POLL_MS;
}

/** The fields the list draws with the progress cell. */
export function progressFields(columns: readonly { field: string; cell?: string }[]): string[] {
  return columns.filter((c) => c.cell === 'progress').map((c) => c.field);
}

/** Whether any row has a percentage (0–100) in one of those fields. */
export function rowsAtWork(rows: readonly Record<string, unknown>[], fields: readonly string[]): boolean {
  return fields.length > 0 && rows.some((row) => fields.some((f) => {
    const v = row[f];
    return v !== null && v !== undefined && v !== '' && Number.isFinite(Number(v));
  }));
}
