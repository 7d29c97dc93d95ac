/**
 * Fields of shown rows changed in place by pushes (a slide's bar moving as its conversion runs), kept over the
 * rows the list last read until a newer read answers: a read started after a patch already holds what it said,
 * one started before it (still in flight when the push came) does not, and its answer keeps the patch on top.
 */
export interface RowPatches {
  readonly entries: ReadonlyMap<string, { values: Record<string, unknown>; seq: number }>;
  /** The newest patch's number: a read remembers it when it starts (patchesAfter). */
  readonly seq: number;
}

export const NO_PATCHES: RowPatches = { entries: new Map(), seq: 0 };

export function addPatch(patches: RowPatches, key: string, values: Record<string, unknown>): RowPatches {
  const seq = patches.seq + 1;
  const entries = new Map(patches.entries);
  entries.set(key, { values: { ...entries.get(key)?.values, ...values }, seq });
  return { entries, seq };
}

/** What is left once a read that started when the newest patch was `seq` has answered. */
export function patchesAfter(patches: RowPatches, seq: number): RowPatches {
  if (![...patches.entries.values()].some((e) => e.seq <= seq)) return patches;
  return { entries: new Map([...patches.entries].filter(([, e]) => e.seq > seq)), seq: patches.seq };
}

/** The rows with their patches applied (the same array, and the same objects, where none applies). */
export function patchedRows<R extends Record<string, unknown>>(rows: R[], rowKey: string, patches: RowPatches): R[] {
  if (patches.entries.size === 0) return rows;
  let changed = false;
  const out = rows.map((row) => {
    const patch = patches.entries.get(String(row[rowKey]));
    if (!patch) return row;
    changed = true;
    return { ...row, ...patch.values };
  });
  return changed ? out : rows;
}
