/** Row selection gestures of the shared table (spec §2): shift-click ranges and ctrl-drag boxes. */

/** Shift-click: every key from the anchor to the clicked row, inclusive, in table order. */
export function rangeKeys(keys: readonly string[], anchor: string | null, target: string): string[] {
  const b = keys.indexOf(target);
  if (b < 0) return [];
  const a = anchor === null ? -1 : keys.indexOf(anchor);
  if (a < 0) return [target];
  return keys.slice(Math.min(a, b), Math.max(a, b) + 1);
}

/** Ctrl-drag: the rows a vertical box from y0 to y1 (pixels inside the table body) touches. */
export function boxKeys(keys: readonly string[], y0: number, y1: number, rowHeight: number): string[] {
  if (!keys.length) return [];
  const top = Math.max(0, Math.min(y0, y1));
  const bottom = Math.max(y0, y1);
  const first = Math.floor(top / rowHeight);
  const last = Math.min(keys.length - 1, Math.floor(bottom / rowHeight));
  return first > last ? [] : keys.slice(first, last + 1);
}

/** Applies a gesture's keys to a selection: replace it, or (ctrl/shift held on a selection) add to it. */
export function withKeys(selected: Readonly<Record<string, boolean>>, keys: readonly string[], add: boolean): Record<string, boolean> {
  const out: Record<string, boolean> = add ? { ...selected } : {};
  for (const k of keys) out[k] = true;
  return out;
}
