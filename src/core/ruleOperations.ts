/**
 * The json-logic-js operations a hospital's rule may use, wherever it sits (a rule set, a page's or a contract's
 * form rules, an action's visibleIf): checked at save (rules.ts `logicProblems`) and again by the evaluator
 * (ruleBudget.ts), so a rule saved before the check, or reaching the evaluator another way, is refused, not run.
 * Not `log` (it prints the data it is given, patient data among it, to the server's console) and nothing the
 * library might add later unseen. `rule` (our reference) is not here: it is expanded before a rule runs.
 */
export const RULE_OPERATIONS: ReadonlySet<string> = new Set([
  '==', '===', '!=', '!==', '>', '>=', '<', '<=', '!!', '!', '%', 'in', 'cat', 'substr', '+', '-', '*', '/', 'min', 'max',
  'merge', 'var', 'missing', 'missing_some', 'if', '?:', 'and', 'or', 'filter', 'map', 'reduce', 'all', 'none', 'some',
  // Ours (ruleDates.ts): date arithmetic json-logic lacks.
  'add_days',
]);

/** Thrown by the evaluator on an operation outside RULE_OPERATIONS, before it runs. */
export class RuleOperationError extends Error {
  constructor(readonly operation: string) {
    super(`operation "${operation}" is not allowed`);
    this.name = 'RuleOperationError';
  }
}
