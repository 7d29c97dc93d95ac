/**
 * An undo/redo history of edits (the viewer's annotation edits): a new edit clears what could be redone, the
 * oldest edits fall off past `limit`. Pure: the caller carries an edit out and its inverse.
 */
export interface History<E> { past: E[]; future: E[] }

export const emptyHistory = <E>(): History<E> => ({ past: [], future: [] });

export function record<E>(h: History<E>, edit: E, limit = 100): History<E> {
  const past = [...h.past, edit];
  return { past: past.length > limit ? past.slice(past.length - limit) : past, future: [] };
}

/** The edit to reverse and the history after it, or null when there is nothing to undo. */
export function undo<E>(h: History<E>): { edit: E; history: History<E> } | null {
  const edit = h.past[h.past.length - 1];
  if (edit === undefined) return null;
  return { edit, history: { past: h.past.slice(0, -1), future: [edit, ...h.future] } };
}

export function redo<E>(h: History<E>): { edit: E; history: History<E> } | null {
  const edit = h.future[0];
  if (edit === undefined) return null;
  return { edit, history: { past: [...h.past, edit], future: h.future.slice(1) } };
}

/** Every edit rewritten (an annotation re-created by undo gets a new id, and older edits must name it). */
export function mapHistory<E>(h: History<E>, f: (e: E) => E): History<E> {
  return { past: h.past.map(f), future: h.future.map(f) };
}
