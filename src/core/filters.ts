/**
 * The filter language of spec §5 and §7, shared by the search drawer (which builds it) and the server
 * (which translates it to SQL): condition groups `{ column, operator, value, condition, child }`.
 * `condition` joins an item to the items before it; `except` means "and not", done by inverting the
 * operator; `child` is a nested group evaluated as one parenthesised condition.
 */
export const OPERATORS = ['=', '!=', '>', '>=', '<', '<=', 'like', 'not like', 'in', 'not in', 'between', 'not between', 'empty', 'not empty'] as const;
export type Operator = (typeof OPERATORS)[number];
export const COMBINATORS = ['and', 'or', 'except'] as const;
export type Combinator = (typeof COMBINATORS)[number];

export interface FilterCondition {
  column?: string;
  operator?: Operator;
  value?: unknown;
  condition?: Combinator;
  child?: FilterCondition[];
}

const INVERSE: Record<Operator, Operator> = {
  '=': '!=', '!=': '=', '>': '<=', '<=': '>', '<': '>=', '>=': '<',
  like: 'not like', 'not like': 'like', in: 'not in', 'not in': 'in', between: 'not between', 'not between': 'between',
  empty: 'not empty', 'not empty': 'empty',
};

/** Spec §5: except inverts operators (= to !=, > to <=, like to not like, in to not in, between to not between). */
export const invertOperator = (op: Operator): Operator => INVERSE[op];

export const isOperator = (v: unknown): v is Operator => typeof v === 'string' && (OPERATORS as readonly string[]).includes(v);
export const isCombinator = (v: unknown): v is Combinator => typeof v === 'string' && (COMBINATORS as readonly string[]).includes(v);

/** A value the spec counts as empty: dropped from filter payloads. */
export function isEmptyValue(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0 || v.every(isEmptyValue);
  return false;
}

const needsPair = (op?: Operator) => op === 'between' || op === 'not between';
/** "empty" / "not empty" (a slide without a case) take no value: a schema's tab filter, not the search drawer's. */
export const takesNoValue = (op?: Operator) => op === 'empty' || op === 'not empty';

/**
 * Conditions a condition on a column brings with it, as its resource declares them (`impliedFilters` in
 * schemas/resources/*.json): cases' `age` is in years (spec §5), so `age` brings `age_unit = year`.
 */
export type ImpliedFilters = Record<string, { column: string; operator: Operator; value: unknown }[]>;

/**
 * Drops conditions with an empty value (and `between` without both ends), and groups left empty;
 * a kept condition brings the conditions `implied` names for its column. The first item's combinator is
 * meaningless and normalised to `and`, except that a leading `except` keeps its "not".
 */
export function normaliseFilter(conditions: FilterCondition[], implied: ImpliedFilters = {}): FilterCondition[] {
  const out: FilterCondition[] = [];
  for (const c of conditions) {
    if (c.child) {
      const child = normaliseFilter(c.child, implied);
      if (child.length) out.push({ condition: c.condition ?? 'and', child });
      continue;
    }
    if (!c.column || (isEmptyValue(c.value) && !takesNoValue(c.operator))) continue;
    if (needsPair(c.operator) && (!Array.isArray(c.value) || c.value.length !== 2 || c.value.some(isEmptyValue))) continue;
    out.push({ column: c.column, operator: c.operator ?? '=', value: c.value, condition: c.condition ?? 'and' });
    for (const extra of Object.hasOwn(implied, c.column) ? implied[c.column] : []) out.push({ ...extra, condition: 'and' });
  }
  if (out[0] && out[0].condition === 'or') out[0] = { ...out[0], condition: 'and' };
  return out;
}

/** `{ status: 1, role_id: [2, 3] }` → equality / `in` conditions (the `params` query of spec §7). */
export function paramsToFilter(params: Record<string, unknown>): FilterCondition[] {
  return Object.entries(params)
    .filter(([, v]) => !isEmptyValue(v))
    .map(([column, value]) => ({ column, operator: Array.isArray(value) ? 'in' : '=', value, condition: 'and' }) as FilterCondition);
}
