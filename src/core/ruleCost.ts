import { RULE_LIMITS } from './ruleBudget.js';
import type { RuleProblem } from './rules.js';
import { schemaLogic } from './schemaLogic.js';

/**
 * What a rule costs when that can be seen without data, so a save refuses it rather than a request aborting it
 * (ruleBudget.ts). An upper bound counted as the evaluator counts (a step per operation, literal and item, plus the
 * length of each list built): a `map`, `filter`, `all`, `some`, `none` or `reduce` runs its logic once per item of
 * its input, whose length is known for a literal list and what `merge`, `map`, `filter` and `if` make of them; a
 * list read from the data, or grown by a `reduce`, counts as one item: that cost shows only when the rule runs.
 */
interface Estimate { cost: number; items: number }

const ONE: Estimate = { cost: 1, items: 1 };
const PER_ITEM = new Set(['map', 'filter', 'all', 'none', 'some', 'reduce']);
const BRANCHES = new Set(['if', '?:', 'and', 'or']);

function estimate(node: unknown): Estimate {
  if (Array.isArray(node)) return { cost: 1 + sum(node.map(estimate), 'cost'), items: node.length };
  if (!node || typeof node !== 'object' || Object.keys(node).length !== 1) return ONE;
  const [op, raw] = Object.entries(node)[0]!;
  const args = (Array.isArray(raw) ? raw : [raw]).map(estimate);
  if (PER_ITEM.has(op)) {
    const [input = ONE, body = ONE, ...rest] = args;
    const items = op === 'map' || op === 'filter' ? input.items : 1;
    return { cost: 1 + input.cost + input.items * body.cost + sum(rest, 'cost') + (items > 1 ? items : 0), items };
  }
  if (op === 'merge') {
    const items = sum(args, 'items');
    return { cost: 1 + sum(args, 'cost') + items, items };
  }
  return { cost: 1 + sum(args, 'cost'), items: BRANCHES.has(op) ? Math.max(1, ...args.map((a) => a.items)) : 1 };
}

const sum = (list: Estimate[], key: keyof Estimate) => list.reduce((n, e) => n + e[key], 0);

/** A rule whose cost is visibly past RULE_LIMITS (references already expanded, or each counted as one step). */
export function logicCostProblems(logic: unknown, path = ''): RuleProblem[] {
  const { cost, items } = estimate(logic);
  const at = path || '/';
  if (items > RULE_LIMITS.items) return [{ path: at, message: `builds a list of more than ${RULE_LIMITS.items} items` }];
  if (cost > RULE_LIMITS.operations) return [{ path: at, message: `needs more than the ${RULE_LIMITS.operations} operations an evaluation may use` }];
  return [];
}

/** The json-logic a page schema or contract extension carries (schemaLogic.ts), costed as a rule set's is. References
 * count as one step each: what they name is costed where the rule set is saved. */
export function schemaCostProblems(doc: unknown): RuleProblem[] {
  return schemaLogic(doc).flatMap(({ logic, path }) => logicCostProblems(logic, path));
}
