import { useCallback, useEffect, useRef, useState } from 'react';
import { isAxiosError } from 'axios';
import { restoreDraft, sameText, textOf, type DraftField, type DraftText, type LocalDraft } from '../core/reportDraft';
import { createReport, saveReport, type Report } from './api';

export type SaveState = 'saved' | 'dirty' | 'saving' | 'offline' | 'conflict';
const AUTOSAVE_MS = 2000;
const key = (caseId: number) => `dsms.report-draft.${caseId}`;

function readLocal(caseId: number): LocalDraft | null {
  try {
    const v = localStorage.getItem(key(caseId));
    return v ? (JSON.parse(v) as LocalDraft) : null;
  } catch {
    return null;
  }
}

/**
 * The report's text as the doctor types it: every change is kept in local storage at once (with the version it
 * was typed on), sent to the server two seconds after typing stops, and dropped locally only once the server holds
 * exactly that text. A network error leaves it local ("offline") and retries on the next change or save; another
 * doctor's save in between (409) stops autosave ("conflict") without overwriting either text.
 */
/** `start`: the text a case without a report starts from (gross sampling's description); null until it is known. */
export function useReportDraft(caseId: number, report: Report | null, editable: boolean, onReport: (r: Report) => void, start: Partial<DraftText> | null = null) {
  const [text, setText] = useState<DraftText>(() => textOf(report));
  const [state, setState] = useState<SaveState>('saved');
  const reportRef = useRef(report);
  const textRef = useRef(text);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  reportRef.current = report;

  // On load (and when another report arrives): the server's text, or what was typed here and not saved.
  const loadedFor = useRef<string>('');
  useEffect(() => {
    // The start text arrives with the editor's data, after the first (empty) load.
    const tag = `${caseId}:${report?.id ?? 0}:${report ? '' : JSON.stringify(start ?? {})}`;
    if (loadedFor.current === tag) return;
    loadedFor.current = tag;
    const server = report ? { version: report.version, text: textOf(report) } : start ? { version: 0, text: { ...textOf(null), ...start } } : null;
    const restored = restoreDraft(server, readLocal(caseId));
    textRef.current = restored.text;
    setText(restored.text);
    setState(restored.conflict ? 'conflict' : restored.from === 'local' ? 'dirty' : 'saved');
  }, [caseId, report, start]);

  const save = useCallback(async (): Promise<Report | null> => {
    clearTimeout(timer.current);
    const current = reportRef.current;
    const typed = textRef.current;
    if (current && sameText(typed, textOf(current))) {
      localStorage.removeItem(key(caseId));
      setState('saved');
      return current;
    }
    setState('saving');
    try {
      const next = current ? await saveReport(current.id, current.version, typed) : await createReport(caseId, typed);
      reportRef.current = next;
      onReport(next);
      if (sameText(textRef.current, typed)) {
        localStorage.removeItem(key(caseId));
        setState('saved');
      } else {
        localStorage.setItem(key(caseId), JSON.stringify({ reportId: next.id, caseId, baseVersion: next.version, text: textRef.current, at: new Date().toISOString() } satisfies LocalDraft));
        setState('dirty');
      }
      return next;
    } catch (e) {
      setState(isAxiosError(e) && e.response?.status === 409 ? 'conflict' : 'offline');
      return null;
    }
  }, [caseId, onReport]);

  const change = useCallback((field: DraftField, value: string) => {
    const next = { ...textRef.current, [field]: value };
    textRef.current = next;
    setText(next);
    const base = reportRef.current;
    localStorage.setItem(key(caseId), JSON.stringify({ reportId: base?.id ?? null, caseId, baseVersion: base?.version ?? 0, text: next, at: new Date().toISOString() } satisfies LocalDraft));
    setState((s) => (s === 'conflict' ? s : 'dirty'));
    clearTimeout(timer.current);
    if (editable) timer.current = setTimeout(() => { void saveIfFree(); }, AUTOSAVE_MS);
  }, [caseId, editable]); // eslint-disable-line react-hooks/exhaustive-deps -- saveIfFree reads refs only

  // Autosave never runs over a conflict: the doctor reloads (and keeps the local text) first.
  const stateRef = useRef(state);
  stateRef.current = state;
  const saveIfFree = () => (stateRef.current === 'conflict' ? Promise.resolve(null) : save());

  /** After a reload that confirmed the conflict: the server's version becomes the base, the typed text stays. */
  const rebase = useCallback((fresh: Report | null) => {
    reportRef.current = fresh;
    localStorage.setItem(key(caseId), JSON.stringify({ reportId: fresh?.id ?? null, caseId, baseVersion: fresh?.version ?? 0, text: textRef.current, at: new Date().toISOString() } satisfies LocalDraft));
    setState('dirty');
  }, [caseId]);

  useEffect(() => () => clearTimeout(timer.current), []);
  return { text, change, save, state, rebase, setAll: (t: DraftText) => { for (const [f, v] of Object.entries(t)) change(f as DraftField, v); } };
}
