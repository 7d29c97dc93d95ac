import { LANGUAGES, type Language } from './constants.js';
import { evaluateNamed, type RuleResolver } from './rules.js';

/**
 * Signed reports as fixed documents (issue 27): when a report counts as signed (then it is served from what was
 * frozen at signing, never rendered again from live data), which languages a hospital issues its reports in, and
 * which of those a reader gets.
 */

export interface SignedState {
  report_type: number;
  sub_phase: string;
  sign_at?: string | null;
}

/**
 * Signed: the case's report once signed (held in its hesitation period or issued), a supplementary report once
 * accepted. A recalled report is back at to_sign with its signing cleared, so it is a draft again.
 */
export function isSigned(r: SignedState): boolean {
  if (r.report_type === 2) return r.sub_phase === 'accept';
  return !!r.sign_at && (r.sub_phase === 'to_issue' || r.sub_phase === 'signed');
}

/**
 * The languages the hospital issues reports in, the first being its issuing language (workflow rule
 * `report-languages`): both of the product's languages by default, so every reader gets the report in theirs as
 * before. Unknown entries are dropped; a rule that names none keeps the default (a report is always issued).
 */
export function reportLanguages(resolve: RuleResolver): Language[] {
  const v = evaluateNamed('workflow.report-languages', {}, { resolve, fallback: null });
  const wanted = Array.isArray(v) ? v.filter((l): l is Language => (LANGUAGES as readonly unknown[]).includes(l)) : [];
  return wanted.length ? [...new Set(wanted)] : [...LANGUAGES];
}

/** The reader's language when the document was issued in it, else the issuing (first) language. */
export function servedLanguage(issued: readonly string[], reader: string): string | undefined {
  return issued.includes(reader) ? reader : issued[0];
}
