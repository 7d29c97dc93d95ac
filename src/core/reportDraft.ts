/**
 * The diagnosis editor's text safety (issue 15): a phrase goes in at the cursor, and typed text survives a network
 * error or a reload: every change is kept in the browser beside the report version it was typed on, and put back
 * on load unless the server already holds the same text.
 */
export const DRAFT_FIELDS = ['gross_description', 'microscopic', 'diagnosis', 'advice', 'postscript'] as const;
export type DraftField = (typeof DRAFT_FIELDS)[number];
export type DraftText = Record<DraftField, string>;

export interface LocalDraft { reportId: number | null; caseId: number; baseVersion: number; text: DraftText; at: string }

/** `insert` replaces the selection [start, end) of `text`; the caret goes after it. */
export function insertAt(text: string, start: number, end: number, insert: string): { text: string; caret: number } {
  const s = Math.max(0, Math.min(start, text.length));
  const e = Math.max(s, Math.min(end, text.length));
  return { text: text.slice(0, s) + insert + text.slice(e), caret: s + insert.length };
}

export const sameText = (a: DraftText, b: DraftText) => DRAFT_FIELDS.every((f) => (a[f] ?? '') === (b[f] ?? ''));

export const textOf = (r: Partial<Record<DraftField, string | null>> | null | undefined): DraftText =>
  Object.fromEntries(DRAFT_FIELDS.map((f) => [f, r?.[f] ?? ''])) as DraftText;

/**
 * What the editor shows on load: the server's text, or the browser's unsaved text. `conflict`: the unsaved text
 * was typed on an older version than the server now holds (someone saved meanwhile): it is shown, and saving it
 * is refused until the doctor reloads, so nothing is overwritten silently and nothing typed is lost.
 */
export function restoreDraft(server: { version: number; text: DraftText } | null, local: LocalDraft | null): { text: DraftText; from: 'server' | 'local'; conflict: boolean } {
  const serverText = server?.text ?? textOf(null);
  if (!local || sameText(local.text, serverText)) return { text: serverText, from: 'server', conflict: false };
  return { text: local.text, from: 'local', conflict: (server?.version ?? 0) !== local.baseVersion };
}
