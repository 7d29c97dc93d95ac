/**
 * A user's stored column order and visibility for one list (GET/PUT /api/schemas/{alias}/columns). `prop` is
 * the column's field: the stored preferences (server and dexie) keep the name they were saved with.
 */
export interface ColumnPref {
  prop: string;
  hidden: boolean;
}

/**
 * The columns in the user's order with the user's visibility. Columns the schema no longer has are
 * dropped; columns the user has never seen (an administrator added them) keep the schema's default
 * visibility and take their schema position after the nearest column before them.
 */
export function applyColumnPrefs(columns: readonly { field: string; hidden?: boolean }[], prefs: readonly ColumnPref[]): ColumnPref[] {
  const known = new Set(columns.map((c) => c.field));
  const out: ColumnPref[] = prefs.filter((p) => known.has(p.prop)).map((p) => ({ prop: p.prop, hidden: !!p.hidden }));
  const placed = new Set(out.map((p) => p.prop));
  columns.forEach((c, i) => {
    if (placed.has(c.field)) return;
    const before = columns.slice(0, i).reverse().find((b) => placed.has(b.field));
    const at = before ? out.findIndex((p) => p.prop === before.field) + 1 : 0;
    out.splice(at, 0, { prop: c.field, hidden: !!c.hidden });
    placed.add(c.field);
  });
  return out;
}

/** Moves one column to another position (drag to reorder). */
export function moveColumn(prefs: readonly ColumnPref[], from: string, to: string): ColumnPref[] {
  const a = prefs.findIndex((p) => p.prop === from);
  const b = prefs.findIndex((p) => p.prop === to);
  if (a < 0 || b < 0 || a === b) return [...prefs];
  const out = [...prefs];
  const [moved] = out.splice(a, 1);
  out.splice(b, 0, moved);
  return out;
}

/** Shows or hides one column; the last visible column cannot be hidden (an empty table helps no one). */
export function toggleColumn(prefs: readonly ColumnPref[], prop: string, hidden: boolean): ColumnPref[] {
  if (hidden && prefs.filter((p) => !p.hidden && p.prop !== prop).length === 0) return [...prefs];
  return prefs.map((p) => (p.prop === prop ? { ...p, hidden } : p));
}
