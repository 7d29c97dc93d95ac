/**
 * The grid layout of a list page (`list.layout: "grid"`, `list.grid`): the rows it answers drawn as a table of one
 * field's values down (people) by another's across (the days of a roster), each cell showing a third field (the
 * shift) of the rows at that crossing. A date field across is filled to every day from the first to the last
 * answered, so a cycle reads as consecutive days with its free days empty. Pure: the engine's GridView draws it.
 */
export interface GridSchema {
  /** The field whose values are the grid's rows (down the side). */
  row: string;
  /** The field whose values are the grid's columns (across the top). */
  column: string;
  /** The field each cell shows, once per row at that crossing. */
  value: string;
}

type Row = Record<string, unknown>;

export interface GridLine {
  key: string;
  /** The first row of this line: the side cell draws its `row` field from it. */
  first: Row;
  cells: Record<string, Row[]>;
}

export interface GridModel {
  columns: string[];
  lines: GridLine[];
  /** Days past the limit were left out (a list that spans months). */
  clipped: boolean;
}

/** At most this many columns: a month and a day over, twice (two cycles side by side). */
export const GRID_MAX_COLUMNS = 62;

const DAY = /^\d{4}-\d{2}-\d{2}/;

/** Every day from `first` to `last` (YYYY-MM-DD, inclusive), at most `limit`. */
export function daysBetween(first: string, last: string, limit = GRID_MAX_COLUMNS): string[] {
  const days: string[] = [];
  const end = Date.parse(`${last.slice(0, 10)}T00:00:00Z`);
  for (let t = Date.parse(`${first.slice(0, 10)}T00:00:00Z`); t <= end && days.length < limit; t += 86_400_000) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

const keyOf = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/**
 * Lays the rows out: lines in the order their first row comes (the list's sort), columns in ascending order of
 * their value (dates filled in between when every value is a date), cells keeping the rows' order.
 */
export function gridModel(rows: readonly Row[], grid: GridSchema, limit = GRID_MAX_COLUMNS): GridModel {
  const values = [...new Set(rows.map((r) => keyOf(r[grid.column])).filter((v) => v !== ''))].sort();
  const dates = values.length > 0 && values.every((v) => DAY.test(v));
  // One past the limit tells whether any were left out without walking a range of years.
  const all = dates ? daysBetween(values[0], values[values.length - 1], limit + 1) : values;
  const columns = all.slice(0, limit);
  const kept = new Set(columns);
  const lines = new Map<string, GridLine>();
  for (const r of rows) {
    const key = keyOf(r[grid.row]);
    const line = lines.get(key) ?? { key, first: r, cells: {} };
    lines.set(key, line);
    const col = dates ? keyOf(r[grid.column]).slice(0, 10) : keyOf(r[grid.column]);
    if (kept.has(col)) (line.cells[col] ??= []).push(r);
  }
  return { columns, lines: [...lines.values()], clipped: all.length > columns.length };
}
