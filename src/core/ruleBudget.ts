import jsonLogic from 'json-logic-js';
import { RULE_OPERATIONS, RuleOperationError } from './ruleOperations.js';
import { DATE_OPERATIONS } from './ruleDates.js';

/**
 * The work one json-logic evaluation may do, on server and browser alike. A hospital's rule runs inside a request
 * on a worker every hospital shares (and inside the browser's render), so a runaway one (a `map` over a `map`, a
 * `reduce` that doubles a list with `merge`) must stop, not freeze it. `operations`: every step of the evaluator (an
 * operation, a literal, one item of a `map`), plus the length of every list and a hundredth of the length of every
 * string an operation builds; `items`, `chars`: the longest list and string an operation may build. Rules of the
 * spec read one case or one form and take a few hundred operations; data they read (a long report text) is not
 * counted, only what they build from it.
 */
export const RULE_LIMITS = Object.freeze({ operations: 20_000, items: 10_000, chars: 1_000_000 });
export type RuleLimit = keyof typeof RULE_LIMITS;

/** An evaluation stopped at a limit: the server answers a translated 422 (and logs it), the browser a translated panel. */
export class RuleCostError extends Error {
  readonly code = 'rule.too_costly';
  constructor(readonly limit: RuleLimit) {
    super(`rule stopped: more than ${RULE_LIMITS[limit]} ${limit === 'operations' ? 'operations' : limit === 'items' ? 'items in a list it builds' : 'characters in a string it builds'}`);
    this.name = 'RuleCostError';
  }
}

/** Operations whose answer is a list or string they build (the others answer a scalar or data they were given). */
const BUILDERS = new Set(['merge', 'map', 'filter', 'missing', 'missing_some', 'cat']);

type Apply = (logic: unknown, data: unknown) => unknown;
const library = jsonLogic as unknown as { apply: Apply; is_logic(logic: unknown): boolean; get_operator(logic: unknown): string; add_operation(name: string, fn: (...args: unknown[]) => unknown): void };
// The operations we add (ruleDates.ts) are registered here, where every evaluation passes, on server and browser.
for (const [name, fn] of Object.entries(DATE_OPERATIONS)) library.add_operation(name, fn);
const libraryApply = library.apply;

/** What the evaluation under way may still spend; evaluations are synchronous, so one at a time per process. */
let budget: { left: number } | undefined;

function spend(units: number): void {
  budget!.left -= units;
  if (budget!.left < 0) throw new RuleCostError('operations');
}

function measure(result: unknown): void {
  if (Array.isArray(result)) {
    if (result.length > RULE_LIMITS.items) throw new RuleCostError('items');
    spend(result.length);
  } else if (typeof result === 'string') {
    if (result.length > RULE_LIMITS.chars) throw new RuleCostError('chars');
    spend(Math.floor(result.length / 100));
  }
}

/**
 * json-logic-js evaluates recursively through its own `apply` property (every operand, every item of a `map`), so
 * this one counting step in its place sees every step the library takes; outside `applyBounded` it only passes on.
 */
library.apply = (logic, data) => {
  if (!budget) return libraryApply(logic, data);
  spend(1);
  const operation = library.is_logic(logic) ? library.get_operator(logic) : undefined;
  // Refused before the library runs it (or any of its operands).
  if (operation !== undefined && !RULE_OPERATIONS.has(operation)) throw new RuleOperationError(operation);
  const result = libraryApply(logic, data);
  if (operation !== undefined && BUILDERS.has(operation)) measure(result);
  return result;
};

/**
 * json-logic-js's apply within RULE_LIMITS and RULE_OPERATIONS: throws RuleCostError at the first limit it reaches,
 * RuleOperationError at an operation outside the list (callers treat it as a rule that cannot be evaluated).
 */
export function applyBounded(logic: unknown, data: unknown): unknown {
  const outer = budget;
  budget = { left: RULE_LIMITS.operations };
  try {
    return library.apply(logic, data);
  } finally {
    budget = outer;
  }
}
