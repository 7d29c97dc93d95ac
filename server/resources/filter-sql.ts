import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { invertOperator, type FilterCondition, type Operator } from '../../src/core/filters.js';
import { AppError } from '../http/errors.js';
import { coerceValue } from './coerce.js';
import type { ColumnType, ResourceDef, VirtualHop } from './definition.js';
import { extraExpression, type AddedColumns } from './extra-fields.js';
import { listOf, pairOf, scalar } from './filter-values.js';
import type { Untyped } from './untyped.js';

type EB = ExpressionBuilder<Untyped, Untyped>;

/**
 * Where a condition on a derived field (ResourceDef.derivedFilters) keeps the SQL its resource's hooks made of it
 * (derived-filters.ts). A symbol, so no request body can carry one.
 */
export const DERIVED_SQL = Symbol('derived-sql');
export type DerivedSql = (eb: EB) => Expression<SqlBool>;
type Leaf = FilterCondition & { [DERIVED_SQL]?: DerivedSql };

/**
 * The one translation of filter conditions to SQL. Every column was checked against the resource's
 * whitelist by parseListQuery and is checked again here; every value is a bound parameter of the
 * column's type, so both databases answer every operator on every column alike, never with a type error.
 * Items join left to right: `and`, `or`, and `except` (= and not) — for a column condition by the
 * spec's operator inversion, for a group or a join-table field by NOT around it. `added`: the requesting hospital's
 * added fields (extra-fields.ts), compared as their value inside `extra`, typed as the field's contract says.
 */
export function whereFilter(eb: EB, conditions: FilterCondition[], def: ResourceDef, pg: boolean, added: AddedColumns = {}): Expression<SqlBool> {
  let acc: Expression<SqlBool> | undefined;
  for (const c of conditions) {
    const combinator = c.condition ?? 'and';
    const except = combinator === 'except';
    const expr = c.child ? negateIf(eb, whereFilter(eb, c.child, def, pg, added), except) : leaf(eb, c, def, pg, except, added);
    acc = acc === undefined ? expr : combinator === 'or' ? eb.or([acc, expr]) : eb.and([acc, expr]);
  }
  return acc ?? sql<SqlBool>`1 = 1`;
}

const negateIf = (eb: EB, e: Expression<SqlBool>, not: boolean) => (not ? eb.not(e) : e);

function leaf(eb: EB, c: Leaf, def: ResourceDef, pg: boolean, except: boolean, added: AddedColumns): Expression<SqlBool> {
  const derived = c[DERIVED_SQL];
  if (derived) return negateIf(eb, derived(eb), except);
  const column = c.column!;
  const virtual = def.virtual?.[column];
  const op = c.operator ?? '=';
  if (!def.columns[column] && !virtual && Object.hasOwn(added, column)) {
    // The same comparisons as a real column's, on the value inside `extra` (a row without the key holds NULL).
    return compare(eb, extraExpression(def.table, column, added[column], pg), except ? invertOperator(op) : op, c.value, column, added[column], pg);
  }
  const type: ColumnType | undefined = def.columns[column]?.filter ? def.columns[column].type : virtual?.type;
  if (!type) throw new AppError(422, 'resource.unknown_column', { column });

  if (virtual) {
    // "has a role that matches", computed in the join table; except means "has none that matches".
    // A `then` hop goes one table further (a collected slide's case): nested IN, innermost table compared.
    const matching = (hop: VirtualHop): SelectQueryBuilder<Untyped, Untyped, Untyped> => eb.selectFrom(hop.table).select(hop.key).where((ib) => (hop.then
      ? ib(`${hop.table}.${hop.column}`, 'in', matching(hop.then))
      : compare(ib, eb.ref(`${hop.table}.${hop.column}`) as never, op, c.value, column, type, pg)));
    return negateIf(eb, eb(`${def.table}.${virtual.via.local ?? 'id'}`, 'in', matching(virtual.via)), except);
  }
  return compare(eb, eb.ref(`${def.table}.${column}`) as never, except ? invertOperator(op) : op, c.value, column, type, pg);
}

function compare(eb: EB, ref: Expression<unknown>, op: Operator, value: unknown, column: string, type: ColumnType, pg: boolean): Expression<SqlBool> {
  const one = (v: unknown) => bound(coerceValue(column, type, v), type, pg);
  switch (op) {
    case '=': case '!=': case '>': case '>=': case '<': case '<=':
      return eb(ref as never, op === '!=' ? '<>' : op, one(scalar(value, column)) as never);
    case 'like': case 'not like': {
      const text = coerceValue(column, 'string', scalar(value, column)) as string;
      const pattern = `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
      // PostgreSQL's LIKE is case-sensitive where SQLite's is not; ILIKE keeps the two alike.
      const keyword = sql.raw(`${op === 'not like' ? 'NOT ' : ''}${pg ? 'ILIKE' : 'LIKE'}`);
      // A number or date matches by its text, as SQLite does unasked; PostgreSQL has no LIKE for them without the cast.
      const target = type === 'string' || type === 'json' ? ref : sql`CAST(${ref} AS TEXT)`;
      return sql<SqlBool>`${target} ${keyword} ${pattern} ESCAPE '\\'`;
    }
    case 'in': case 'not in':
      return eb(ref as never, op, listOf(value, column).map(one) as never);
    case 'empty': case 'not empty':
      // A text column may hold '' where another row holds NULL: both mean "no value".
      return op === 'empty'
        ? eb.or([eb(ref as never, 'is', null), ...(type === 'string' ? [eb(ref as never, '=', '' as never)] : [])])
        : eb.and([eb(ref as never, 'is not', null), ...(type === 'string' ? [eb(ref as never, '<>', '' as never)] : [])]);
    case 'between': case 'not between': {
      const [from, to] = pairOf(value, column).map(one);
      const between = eb.between(ref as never, from as never, to as never);
      return op === 'between' ? between : eb.not(between);
    }
  }
}

/**
 * PostgreSQL types an integer parameter as its column's int4, so a larger value fails instead of not
 * matching; bound as bigint it compares (int4 with int8, still by the index) as SQLite compares it.
 */
const bound = (v: string | number, type: ColumnType, pg: boolean) => (pg && type === 'integer' ? sql`CAST(${v} AS bigint)` : v);
