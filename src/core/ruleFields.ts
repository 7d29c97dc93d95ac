import { evaluateRule, type RuleResolver, type Warn } from './rules.js';

/**
 * Fields a resource derives from its rows by named json-logic (`"ruleFields": { "overdue": "<set>.<rule>" }` in
 * schemas/resources): each is evaluated on { record, now, today } for every row a list or item answers, so a rule
 * such as "due and not returned" is data the hospital may change, not code. json-logic has no clock: `now` (ISO time)
 * and `today` (YYYY-MM-DD) are the request's, and compare as text with the stored dates. A failing rule gives null.
 */
export function ruleFieldValues(fields: Record<string, string>, record: Record<string, unknown>, resolve: RuleResolver, now: string, warn?: Warn): Record<string, unknown> {
  const data = { record, now, today: now.slice(0, 10) };
  return Object.fromEntries(Object.entries(fields).map(([field, rule]) => [field, evaluateRule({ rule }, data, { resolve, fallback: null, warn })]));
}
