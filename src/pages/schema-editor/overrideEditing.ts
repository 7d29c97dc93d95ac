import { makeStyles, tokens } from '@fluentui/react-components';

/**
 * What the page and rule-set editors share: both edit a hospital's JSON merge patch over a base file kept in the
 * layered store, side by side with what it makes.
 */
export const useOverrideEditorStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  bar: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
  columns: { display: 'grid', gridTemplateColumns: 'minmax(360px, 5fr) minmax(420px, 7fr)', gap: tokens.spacingHorizontalL, alignItems: 'start' },
  editor: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  code: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, minHeight: '420px', width: '100%' },
  problems: { margin: 0, paddingInlineStart: '18px', fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200 },
  preview: { minWidth: 0, padding: tokens.spacingHorizontalM, overflow: 'auto', maxHeight: 'calc(100vh - 220px)' },
  merged: { margin: 0, fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, whiteSpace: 'pre-wrap' },
});

type Json = Record<string, unknown>;

/** Parses the override text; a parse error is a problem like any other. */
export function parseOverride(text: string, notObject: string): { override?: Json; problem?: string } {
  try {
    const v = JSON.parse(text || '{}');
    if (!v || typeof v !== 'object' || Array.isArray(v)) return { problem: notObject };
    return { override: v };
  } catch (e) {
    return { problem: (e as Error).message };
  }
}

/** Server 422 `errors` keyed by JSON path → problems. */
export const serverProblems = (errors: unknown): { path: string; message: string }[] =>
  errors && typeof errors === 'object' ? Object.entries(errors as Record<string, unknown>).flatMap(([path, list]) =>
    (Array.isArray(list) ? list : [list]).map((m) => ({ path, message: String(m) }))) : [];
