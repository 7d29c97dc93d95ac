/**
 * A list whose rows show work under way (a slide converting: a number in a `progress` cell) asks for its rows
 * again every few seconds, so the bar moves and the row becomes ready without a manual refresh; it stops
 * asking once no row has work left. Polling, not a push channel: the realtime channel is a separate piece.
 */
export const WORK_POLL_MS = 2000;

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
