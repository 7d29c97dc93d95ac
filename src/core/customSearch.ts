import { isEmptyValue, type Combinator, type FilterCondition, type Operator } from './filters.js';
import type { SearchItem, SearchItemType } from './pageSchema.js';

/** One row of the custom-search tab (spec §3 "Search condition: name, model, value, condition, symbol"). */
export interface CustomCondition {
  name: string;
  operator: Operator;
  value: unknown;
  condition: Combinator;
}

export const newCondition = (condition: Combinator = 'and'): CustomCondition => ({ name: '', operator: '=', value: undefined, condition });

/** Spec §5: "Removing the last extra condition resets the first combinator to and." */
export function removeCondition(list: readonly CustomCondition[], index: number): CustomCondition[] {
  const out = list.filter((_, i) => i !== index);
  if (out.length === 1 && list.length > 1) out[0] = { ...out[0], condition: 'and' };
  return out;
}

/** Spec §5: "Custom search keeps only conditions with name and value." */
export const completeConditions = (list: readonly CustomCondition[]) =>
  list.filter((c) => !!c.name && !isEmptyValue(c.value) && (!isPair(c.operator) || (Array.isArray(c.value) && c.value.length === 2 && !c.value.some(isEmptyValue))));

export const isPair = (op: Operator) => op === 'between' || op === 'not between';
export const isList = (op: Operator) => op === 'in' || op === 'not in';

const TEXT: Operator[] = ['=', '!=', 'like', 'not like', 'in', 'not in'];
const ORDERED: Operator[] = ['=', '!=', '>', '>=', '<', '<=', 'between', 'not between'];
const CHOICE: Operator[] = ['=', '!=', 'in', 'not in'];

/** The operators that make sense for a search item's type. */
export function operatorsFor(type: SearchItemType): Operator[] {
  switch (type) {
    case 'input': case 'selectinput': return TEXT;
    case 'number': case 'numberrange': return [...ORDERED, 'in', 'not in'];
    case 'date': case 'daterange': case 'datetimerange': return ORDERED;
    case 'select': case 'multiselect': return CHOICE;
    case 'boolean': return ['=', '!='];
  }
}

/** The operator an item searches with when the schema names none. */
export function defaultOperator(item: Pick<SearchItem, 'type' | 'operator'>): Operator {
  if (item.operator) return item.operator;
  switch (item.type) {
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

/** Custom-search rows → wire conditions (column is the item's model when it differs from its name). */
export function customToFilter(list: readonly CustomCondition[], items: readonly SearchItem[]): FilterCondition[] {
  return completeConditions(list).map((c) => {
    const item = items.find((i) => i.name === c.name);
    return { column: item?.model ?? c.name, operator: c.operator, value: c.value, condition: c.condition };
  });
}

/** Wire conditions kept in the address (filter=…) → custom-search rows, for reopening the drawer. */
export function filterToCustom(filter: readonly FilterCondition[], items: readonly SearchItem[]): CustomCondition[] {
  return filter.filter((f) => f.column && !f.child).map((f) => ({
    name: items.find((i) => (i.model ?? i.name) === f.column)?.name ?? f.column!,
    operator: f.operator ?? '=',
    value: f.value,
    condition: f.condition ?? 'and',
  }));
}
