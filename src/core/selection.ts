/** Row selection gestures of the shared table (spec §2): shift-click ranges and ctrl-drag boxes. */

/** Shift-click: every key from the anchor to the clicked row, inclusive, in table order. */
export function rangeKeys(keys: readonly string[], anchor: string | null, target: string): string[] {
  const b = keys.indexOf(target);
  if (b < 0) return [];
  const a = anchor === null ? -1 : keys.indexOf(anchor);
  if (a < 0) return [target];
  return keys.slice(Math.min(a, b), Math.max(a, b) + 1);
}

/** A rendered row of the table body: its key and its edges in pixels from the body's top. */
export interface RowSpan { key: string; top: number; bottom: number }

/**
 * Ctrl-drag: the rows a vertical box from y0 to y1 (pixels inside the table body) touches. Measured rows, not
 * a row height times an index: a row taller than the others (a wrapped cell, a zoomed font) moves every row below it.
 */
export function boxKeys(rows: readonly RowSpan[], y0: number, y1: number): string[] {
  const top = Math.min(y0, y1);
  const bottom = Math.max(y0, y1);
  return rows.filter((r) => r.bottom > top && r.top <= bottom).map((r) => r.key);
}

/** Applies a gesture's keys to a selection: replace it, or (ctrl/shift held on a selection) add to it. */
export function withKeys(selected: Readonly<Record<string, boolean>>, keys: readonly string[], add: boolean): Record<string, boolean> {
  const out: Record<string, boolean> = add ? { ...selected } : {};
  for (const k of keys) out[k] = true;
  return out;
}
