import { sql, type Kysely } from 'kysely';
import { isPostgres, type Db } from '../db/connect.js';
import type { AggregateDef, ResourceDef } from './definition.js';
import { whereFilter } from './filter-sql.js';
import type { Row } from './hooks/types.js';
import type { Untyped } from './untyped.js';

const loose = (db: Db) => db as unknown as Kysely<Untyped>;

/**
 * The `aggregates` of a resource (definition.ts) for the rows a list or item answers: per field one grouped statement
 * over the source's rows whose `key` is one of these rows' ids (`SELECT key, SUM(column) … GROUP BY key`), through the
 * request's handle, so the source table's row scope applies as to any read. A row no source row points at gets 0 for
 * sum and count, null for min and max. Rule fields are evaluated after, so a rule can compare an aggregate with a
 * column ("stock below its minimum", ruleFields.ts).
 */
export async function withAggregates<T extends Row[]>(db: Db, def: ResourceDef, sources: ReadonlyMap<string, ResourceDef>, rows: T): Promise<T> {
  if (!def.aggregates || !rows.length) return rows;
  const ids = [...new Set(rows.map((r) => Number(r.id)))];
  const values = new Map<string, Map<number, unknown>>();
  for (const [field, a] of Object.entries(def.aggregates)) values.set(field, await aggregate(db, sources.get(a.from)!, a, ids));
  return rows.map((r) => {
    const out: Row = { ...r };
    for (const [field, a] of Object.entries(def.aggregates!)) out[field] = values.get(field)!.get(Number(r.id)) ?? (a.op === 'sum' || a.op === 'count' ? 0 : null);
    return out;
  }) as T;
}

async function aggregate(db: Db, source: ResourceDef, a: AggregateDef, ids: number[]): Promise<Map<number, unknown>> {
  const t = source.table;
  const key = `${t}.${a.key}`;
  const type = a.column ? source.columns[a.column].type : 'integer';
  const rows = await loose(db).selectFrom(t)
    .select((eb) => [
      eb.ref(key).as('k'),
      (a.op === 'count' ? eb.fn.countAll() : eb.fn(a.op, [eb.ref(`${t}.${a.column}`)])).as('v'),
    ])
    .where(key, 'in', ids)
    .where((eb) => (a.where?.length ? whereFilter(eb, a.where, source, isPostgres(db)) : sql<boolean>`1 = 1`))
    .groupBy(key)
    .execute();
  // PostgreSQL answers sums and counts as text (numeric, bigint).
  const numeric = a.op === 'count' || a.op === 'sum' || type === 'integer' || type === 'number';
  return new Map(rows.map((r) => [Number(r.k), r.v === null ? null : numeric ? Number(r.v) : r.v]));
}
