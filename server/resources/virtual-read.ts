import type { AliasedExpression, ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type { ResourceDef, VirtualHop } from './definition.js';
import type { Untyped } from './untyped.js';

type EB = ExpressionBuilder<Untyped, Untyped>;

/**
 * Virtual fields declared `"read": true` are answered with each row, not only filtered by: the value the join chain
 * reaches from the row (a teaching slide's slide name, its case's pathology number), one correlated scalar subquery
 * per field. Only for joins that reach one row per step (a key, not a join table of many): the first is taken.
 */
export function virtualReads(eb: EB, def: Pick<ResourceDef, 'table' | 'virtual'>): AliasedExpression<unknown, string>[] {
  return Object.entries(def.virtual ?? {}).filter(([, v]) => v.read).map(([name, v]) => {
    let depth = 0;
    const value = (hop: VirtualHop, from: unknown): SelectQueryBuilder<Untyped, Untyped, Untyped> => {
      const alias = `vr_${name}_${depth++}`;
      const step = eb.selectFrom(`${hop.table} as ${alias}`).select(`${alias}.${hop.column}`)
        .where(`${alias}.${hop.key}`, '=', from as never).limit(1);
      return hop.then ? value(hop.then, step) : step;
    };
    return value(v.via, eb.ref(`${def.table}.${v.via.local ?? 'id'}`)).as(name) as AliasedExpression<unknown, string>;
  });
}
