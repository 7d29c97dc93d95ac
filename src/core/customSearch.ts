import { isEmptyValue, type Combinator, type FilterCondition, type Operator } from './filters.js';
import type { SearchField, SearchWidget } from './pageSchema.js';
import { evaluateNamed, evaluateRule, noRules, type RuleProblem, type RuleResolver, type RuleSet, type Warn } from './rules.js';

/** One row of the custom-search tab (spec §3 "Search condition: name, model, value, condition, symbol"); `field` names the search item. */
export interface CustomCondition {
  field: string;
  operator: Operator;
  value: unknown;
  condition: Combinator;
}

export const newCondition = (condition: Combinator = 'and'): CustomCondition => ({ field: '', operator: '=', value: undefined, condition });

/** Spec §5: "Removing the last extra condition resets the first combinator to and." */
export function removeCondition(list: readonly CustomCondition[], index: number): CustomCondition[] {
  const out = list.filter((_, i) => i !== index);
  if (out.length === 1 && list.length > 1) out[0] = { ...out[0], condition: 'and' };
  return out;
}

/** Spec §5: "Custom search keeps only conditions with name and value." */
export const completeConditions = (list: readonly CustomCondition[]) =>
  list.filter((c) => !!c.field && !isEmptyValue(c.value) && (!isPair(c.operator) || (Array.isArray(c.value) && c.value.length === 2 && !c.value.some(isEmptyValue))));

export const isPair = (op: Operator) => op === 'between' || op === 'not between';
export const isList = (op: Operator) => op === 'in' || op === 'not in';

/** The operators the custom search can offer: spec §5's twelve, each one filter-sql.ts executes on every column type. */
export const SEARCH_OPERATORS: readonly Operator[] = ['=', '!=', '>', '>=', '<', '<=', 'like', 'not like', 'in', 'not in', 'between', 'not between'];
const ITEM_TYPES: readonly SearchWidget[] = ['input', 'selectinput', 'number', 'numberrange', 'date', 'daterange', 'datetimerange', 'select', 'multiselect', 'boolean'];
/** The rule set (schemas/rules/search-operators.json) with one rule per search widget. */
export const OPERATOR_RULES = 'search-operators';

/**
 * The operators the custom search offers for an item: the rule `search-operators.<widget>` evaluated
 * with `{ widget, field }`, so a hospital restricts or adds operators per widget or per field by an override.
 * Anything that is not one of SEARCH_OPERATORS is dropped, so a rule can never offer what the server
 * cannot run; a missing or broken rule offers none (spec §5), with a warning.
 */
export function operatorsFor(item: Pick<SearchField, 'widget' | 'field'>, resolve: RuleResolver, warn?: Warn): Operator[] {
  const result = evaluateNamed(`${OPERATOR_RULES}.${item.widget}`, { widget: item.widget, field: item.field }, { resolve, fallback: [], warn });
  if (!Array.isArray(result)) return [];
  return [...new Set(result.filter((op): op is Operator => (SEARCH_OPERATORS as readonly unknown[]).includes(op)))];
}

/** What a hospital's search-operators set must keep: a rule per known type, each giving known operators. */
export function searchOperatorProblems(set: RuleSet, resolve: RuleResolver = noRules): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const [type, logic] of Object.entries(set.rules)) {
    if (!(ITEM_TYPES as readonly string[]).includes(type)) {
      problems.push({ path: `/rules/${type}`, message: `not a search widget (${ITEM_TYPES.join(', ')})` });
      continue;
    }
    let failed = '';
    const result = evaluateRule(logic, { widget: type, field: '' }, { resolve, fallback: undefined, warn: (m) => { failed = m; } });
    const wrong = Array.isArray(result) ? result.filter((op) => !(SEARCH_OPERATORS as readonly unknown[]).includes(op)) : [];
    if (failed || !Array.isArray(result)) problems.push({ path: `/rules/${type}`, message: failed || 'must give a list of operators' });
    else if (wrong.length) problems.push({ path: `/rules/${type}`, message: `not an operator the server runs: ${wrong.map((w) => JSON.stringify(w)).join(', ')} (allowed: ${SEARCH_OPERATORS.join(', ')})` });
  }
  return problems;
}

/** The operator an item searches with when the schema names none. */
export function defaultOperator(item: Pick<SearchField, 'widget' | 'operator'>): Operator {
  if (item.operator) return item.operator;
  switch (item.widget) {
    case 'numberrange': case 'daterange': case 'datetimerange': return 'between';
    case 'multiselect': return 'in';
    default: return '=';
  }
}

/** The value a condition keeps when its operator changes between single, pair and list forms. */
export function valueForOperator(value: unknown, op: Operator): unknown {
  if (isPair(op)) return Array.isArray(value) && value.length === 2 ? value : [];
  if (isList(op)) return Array.isArray(value) ? value : isEmptyValue(value) ? [] : [value];
  return Array.isArray(value) ? undefined : value;
}

/** Custom-search rows → wire conditions (the wire's `column` is the field). */
export function customToFilter(list: readonly CustomCondition[]): FilterCondition[] {
  return completeConditions(list).map((c) => ({ column: c.field, operator: c.operator, value: c.value, condition: c.condition }));
}

/** Wire conditions kept in the address (filter=…) → custom-search rows, for reopening the drawer. */
export function filterToCustom(filter: readonly FilterCondition[]): CustomCondition[] {
  return filter.filter((f) => f.column && !f.child).map((f) => ({
    field: f.column!,
    operator: f.operator ?? '=',
    value: f.value,
    condition: f.condition ?? 'and',
  }));
}
