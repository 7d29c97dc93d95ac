import { invertOperator, isCombinator, isOperator, type Combinator, type Operator } from './filters.js';
import type { TabCondition } from './pageSchema.js';

/**
 * A tab's filter (the filter DSL of spec §5 the list engine sends: items joined left to right by `and`, `or`,
 * `except`, nested groups in `child`) as the rule builder's query with independent combinators (react-querybuilder's
 * RuleGroupTypeIC: `[rule, 'and', rule, 'or', group]`), and back. Kept free of the builder's package so the
 * translation is tested on its own; the builder's operator names differ from the DSL's where it has its own
 * (two-value editors for between, no value for null).
 */
export interface QueryRule { field: string; operator: string; value: unknown; id?: string; ago?: { hours: number } }
export interface QueryGroupIC { rules: (QueryRule | QueryGroupIC | string)[]; not?: boolean; id?: string }

/** DSL operator → the builder's name (its value editor knows these). */
const TO_BUILDER: Partial<Record<Operator, string>> = {
  like: 'contains', 'not like': 'doesNotContain', 'not in': 'notIn', 'not between': 'notBetween', empty: 'null', 'not empty': 'notNull',
};
const FROM_BUILDER: Record<string, Operator> = Object.fromEntries(Object.entries(TO_BUILDER).map(([dsl, qb]) => [qb, dsl as Operator]));

/** The builder operator names offered for a tab filter, in DSL order. */
export const TAB_FILTER_OPERATORS: readonly string[] = (['=', '!=', '>', '>=', '<', '<=', 'like', 'not like', 'in', 'not in', 'between', 'not between', 'empty', 'not empty'] as Operator[])
  .map((op) => TO_BUILDER[op] ?? op);
export const builderOperator = (op: Operator): string => TO_BUILDER[op] ?? op;
export const dslOperator = (name: string): Operator | undefined => FROM_BUILDER[name] ?? (isOperator(name) ? name : undefined);

const isGroup = (x: QueryRule | QueryGroupIC | string): x is QueryGroupIC => typeof x === 'object' && Array.isArray((x as QueryGroupIC).rules);

/** A tab filter → the builder's query. A leading `except` on a condition becomes its inverted operator (the same "not"). */
export function tabFilterToQuery(filter: readonly TabCondition[] | undefined): QueryGroupIC {
  const rules: QueryGroupIC['rules'] = [];
  (filter ?? []).forEach((c, i) => {
    const joined: Combinator = c.condition ?? 'and';
    if (i > 0) rules.push(joined);
    if (c.child) {
      rules.push({ ...tabFilterToQuery(c.child), ...(i === 0 && joined === 'except' ? { not: true } : {}) });
      return;
    }
    const op: Operator = c.operator ?? '=';
    const rule: QueryRule = { field: c.field ?? '', operator: builderOperator(i === 0 && joined === 'except' ? invertOperator(op) : op), value: c.value ?? '' };
    if (c.ago) rule.ago = c.ago;
    rules.push(rule);
  });
  return { rules };
}

/**
 * The builder's query → a tab filter. Half-built conditions (no field, or a value still empty where one is
 * needed) are left out, so what is saved always runs; `numeric` says which fields take numbers (inputs give text).
 */
export function queryToTabFilter(query: QueryGroupIC, numeric: (field: string) => boolean = () => false): TabCondition[] {
  const out: TabCondition[] = [];
  let joined: Combinator = 'and';
  for (const item of query.rules) {
    if (typeof item === 'string') {
      joined = isCombinator(item) ? item : 'and';
      continue;
    }
    const condition: Combinator = out.length === 0 ? (isGroup(item) && item.not ? 'except' : 'and') : joined;
    joined = 'and';
    if (isGroup(item)) {
      const child = queryToTabFilter(item, numeric);
      if (child.length) out.push({ condition, child });
      continue;
    }
    const op = dslOperator(item.operator);
    if (!item.field || !op) continue;
    if (op === 'empty' || op === 'not empty') {
      out.push({ field: item.field, operator: op, condition });
      continue;
    }
    if (item.ago && (item.value === '' || item.value === undefined)) {
      out.push({ field: item.field, operator: op, ago: item.ago, condition });
      continue;
    }
    const value = valueOf(item.value, op, numeric(item.field));
    if (value === undefined) continue;
    out.push({ field: item.field, operator: op, value, condition });
  }
  if (out[0]?.condition === 'or') out[0] = { ...out[0], condition: 'and' };
  return out.map((c, i) => (i === 0 && c.condition === 'and' && !c.child ? stripAnd(c) : c));
}

/** The first item's `and` says nothing; the base files leave it out, and so does the designer. */
function stripAnd(c: TabCondition): TabCondition {
  const { condition: _and, ...rest } = c;
  return rest;
}

function valueOf(raw: unknown, op: Operator, numeric: boolean): unknown {
  const one = (v: unknown) => {
    const text = typeof v === 'string' ? v.trim() : v;
    if (text === '' || text === undefined || text === null) return undefined;
    return numeric && typeof text === 'string' && Number.isFinite(Number(text)) ? Number(text) : text;
  };
  const list = (Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [raw]).map(one);
  if (op === 'between' || op === 'not between') return list.length === 2 && list.every((v) => v !== undefined) ? list : undefined;
  if (op === 'in' || op === 'not in') {
    const kept = list.filter((v) => v !== undefined);
    return kept.length ? kept : undefined;
  }
  return one(Array.isArray(raw) ? raw[0] : raw);
}
