import type { FilterCondition } from '../../src/core/filters.js';
import type { Db } from '../db/connect.js';
import { AppError } from '../http/errors.js';
import type { ResourceDef } from './definition.js';
import { DERIVED_SQL } from './filter-sql.js';
import type { DerivedFilterContext, ResourceHooks } from './hooks/types.js';
import { listOf, scalar } from './filter-values.js';
import type { ListQuery } from './list-query.js';

const OPERATORS = new Set(['=', '!=', 'in', 'not in']);

/**
 * Conditions on derived fields (a case's spec §4 status, which rules derive from several columns) become SQL over
 * real columns before the list or count runs: the resource's hooks say which rows hold which values
 * (`derivedFilter`), the condition keeps that SQL under a symbol whereFilter reads. `!=` and `not in` are the
 * complement of `=` and `in`. Returns the query unchanged when it names no derived field.
 */
export async function resolveDerived(db: Db, def: ResourceDef, hooks: ResourceHooks | undefined, q: ListQuery, ctx: Omit<DerivedFilterContext, 'memo'>): Promise<ListQuery> {
  const derived = new Set(def.derivedFilters ?? []);
  if (!derived.size) return q;
  const full: DerivedFilterContext = { ...ctx, memo: new Map() };
  const walk = async (list: FilterCondition[]): Promise<FilterCondition[]> => Promise.all(list.map(async (c) => {
    if (c.child) return { ...c, child: await walk(c.child) };
    if (!c.column || !derived.has(c.column)) return c;
    const op = c.operator ?? '=';
    if (!OPERATORS.has(op) || !hooks?.derivedFilter) throw new AppError(422, 'resource.bad_operator', { operator: op });
    const values = (op === 'in' || op === 'not in' ? listOf(c.value, c.column) : [scalar(c.value, c.column)]).map((v) => String(v));
    const match = await hooks.derivedFilter(db, c.column, values, full);
    const negate = op === '!=' || op === 'not in';
    return { ...c, [DERIVED_SQL]: negate ? (eb: Parameters<typeof match>[0]) => eb.not(match(eb)) : match };
  }));
  return { ...q, filter: await walk(q.filter), tabs: await Promise.all(q.tabs.map(async (t) => ({ ...t, filter: await walk(t.filter) }))) };
}
