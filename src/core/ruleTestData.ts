import { latestReport, statusData } from './caseStatusData.js';

/**
 * What each rule set of schemas/rules reads (its description says the same), so the designer's test panel
 * can hand a rule the data the server would: a real case for case-status; the actor's roles with the case for
 * case-transitions and workflow; a search widget and field for search-operators; a form's data for forms.
 */
export type RuleInput = 'case' | 'roles-case' | 'widget-field' | 'form';

export function ruleInput(set: string): RuleInput {
  switch (set) {
    case 'case-status': return 'case';
    case 'case-transitions': case 'workflow': return 'roles-case';
    case 'search-operators': return 'widget-field';
    default: return 'form';
  }
}

export interface RuleTestChoice {
  /** The record picked (a case row as the list API answers it), or none. */
  record?: Record<string, unknown> | null;
  /** Role codes (identification) the actor is given. */
  roles?: string[];
  widget?: string;
  field?: string;
}

/** The data a rule of `set` is evaluated with, built from what the tester picked, as the server builds it. */
export function ruleTestData(set: string, choice: RuleTestChoice): Record<string, unknown> {
  const row = choice.record ?? {};
  switch (ruleInput(set)) {
    case 'case': return statusData(row);
    case 'roles-case': return set === 'workflow'
      ? { roles: choice.roles ?? [], case: row, report: latestReport(row) ?? {} }
      : { roles: choice.roles ?? [], case: row };
    case 'widget-field': return { widget: choice.widget ?? '', field: choice.field ?? '' };
    default: return { ...row, $creating: !choice.record };
  }
}

/** A json-logic `if` chain as cases: when → then, …, otherwise (what the case-status rules are). */
export interface RuleCases { cases: { when: unknown; then: unknown }[]; otherwise: unknown }

/** `{ if: [c1, r1, c2, r2, …, else] }` → its cases; null for anything else. A missing else is null, as json-logic has it. */
export function ifCases(logic: unknown): RuleCases | null {
  if (!logic || typeof logic !== 'object' || Array.isArray(logic)) return null;
  const keys = Object.keys(logic);
  const args = (logic as Record<string, unknown>).if;
  if (keys.length !== 1 || !Array.isArray(args) || args.length < 2) return null;
  const cases: RuleCases['cases'] = [];
  for (let i = 0; i + 1 < args.length; i += 2) cases.push({ when: args[i], then: args[i + 1] });
  return { cases, otherwise: args.length % 2 ? args[args.length - 1] : null };
}

/** Cases → the `if` chain; no case at all is just the otherwise value. */
export function casesToIf(c: RuleCases): unknown {
  if (!c.cases.length) return c.otherwise;
  return { if: [...c.cases.flatMap((x) => [x.when, x.then]), c.otherwise] };
}

/** A rule that is a plain list of words (search operators, levels, verify-fields): edited as a list, not as logic. */
export const isWordList = (logic: unknown): logic is string[] => Array.isArray(logic) && logic.every((x) => typeof x === 'string');
