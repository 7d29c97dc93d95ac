import { evaluateNamed, type RuleResolver, type Warn } from './rules.js';

/** The rule of schemas/rules/case-status.json that names a case's displayed status (spec §4). */
export const CASE_STATUS_RULE = 'case-status.status';

/**
 * The status key a case shows, from the case row (with its latest report as `report`): the same
 * evaluation on the server (filters, counts) and in the browser (display). A missing or failing rule,
 * or a result that is not text, gives '' (spec §5: an unusable rule falls back to empty).
 */
export function caseStatusKey(row: Record<string, unknown>, resolve: RuleResolver, warn?: Warn): string {
  const key = evaluateNamed(CASE_STATUS_RULE, row, { resolve, fallback: '', warn });
  return typeof key === 'string' || typeof key === 'number' ? String(key) : '';
}
