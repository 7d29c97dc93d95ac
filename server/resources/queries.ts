import { expressionBuilder, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import { isPostgres, type Db } from '../db/connect.js';
import { SCOPED_TABLES } from '../db/scoped-tables.js';
import { AppError } from '../http/errors.js';
import { MAX_ID } from '../http/hostile-input.js';
import { coerceValue } from './coerce.js';
import { mapConstraintError, mapTimeout } from './db-errors.js';
import { readableColumns, scopeColumn, writableColumns, type ColumnType, type ResourceDef } from './definition.js';
import { extraExpression } from './extra-fields.js';
import { whereFilter } from './filter-sql.js';
import { virtualReads } from './virtual-read.js';
import type { ResourceHooks, Row, WriteContext } from './hooks/types.js';
import type { ListQuery } from './list-query.js';
import { WRITE_LIMITS } from './limits.js';
import type { Untyped } from './untyped.js';

/** Resource tables are named by data, not by the Database type, so the generic queries use an untyped view. */
const loose = (db: Db) => db as unknown as Kysely<Untyped>;

export async function listRows(db: Db, def: ResourceDef, hooks: ResourceHooks | undefined, q: ListQuery) {
  const pg = isPostgres(db);
  // One filter expression serves both statements; the row statement starts from the resource's kept column list.
  const filter = whereFilter(expressionBuilder<Untyped, Untyped>(), q.filter, def, pg, q.added);
  const countQuery = inScope(loose(db).selectFrom(def.table).where(filter), def, q.scope)
    .select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  let rowsQuery = inScope(selectRows(db, def).where(filter), def, q.scope).limit(q.pageSize).offset((q.page - 1) * q.pageSize);
  for (const [column, dir] of q.sortBy) {
    // An added field sorts by the expression its filter and its index use (extra-fields.ts).
    const added = !def.columns[column] && q.added?.[column];
    rowsQuery = added ? rowsQuery.orderBy(extraExpression(def.table, column, added, pg), dir) : rowsQuery.orderBy(`${def.table}.${column}`, dir);
  }
  // A unique last key keeps pages stable when sorted values repeat.
  if (!q.sortBy.some(([c]) => c === 'id')) rowsQuery = rowsQuery.orderBy(`${def.table}.id`, 'desc');
  const [count, rows] = await Promise.all([countQuery, rowsQuery.execute()]).catch(mapTimeout);
  const total = Number(count.n);
  return {
    data: await finish(db, def, hooks, rows),
    total,
    current_page: q.page,
    per_page: q.pageSize,
    total_pages: Math.ceil(total / q.pageSize),
  };
}

/**
 * Per-tab counts under the same filters (spec §7 count call), in one pass over the filtered rows:
 * one conditional sum per tab instead of one scan per tab.
 */
export async function countTabs(db: Db, def: ResourceDef, q: ListQuery): Promise<Record<string, number>> {
  const pg = isPostgres(db);
  const tabs = q.tabs.length ? q.tabs : [{ key: 'total', filter: [] }];
  const row = await inScope(loose(db).selectFrom(def.table).where((eb) => whereFilter(eb, q.filter, def, pg, q.added)), def, q.scope)
    .select((eb) => tabs.map((tab, i) => (tab.filter.length
      ? eb.fn.sum(eb.case().when(whereFilter(eb, tab.filter, def, pg, q.added)).then(1).else(0).end())
      : eb.fn.countAll()).as(`t${i}`)))
    .executeTakeFirstOrThrow()
    .catch(mapTimeout);
  return Object.fromEntries(tabs.map((t, i) => [t.key, Number(row[`t${i}`] ?? 0)]));
}

/**
 * `scope`: a row of another hospital (or, by the row scope, of a subspecialty directory not the user's) is as absent as a
 * deleted one. `reach`: 'shared' (reads, a state machine's steps) also reaches a row its `sharedWith` hospital names;
 * 'owner' (an edit) only the owner's.
 */
export async function getRow(db: Db, def: ResourceDef, hooks: ResourceHooks | undefined, id: number, scope?: number[], reach: Reach = 'shared'): Promise<Row> {
  const row = await inScope(selectRows(db, def).where(`${def.table}.id`, '=', id), def, scope, reach).executeTakeFirst();
  if (!row) throw new AppError(404, 'resource.not_found');
  return (await finish(db, def, hooks, [row]))[0];
}

/**
 * What the server itself writes besides a request's fields (a state machine's state and its who/when, stateMachine.ts):
 * `set`: columns written as they are (typed like any column, writable or not); `expect`: the update happens only
 * while the row still holds this value (one winner of two parallel transitions; the loser's 409 writes nothing).
 */
export interface ServerWrite {
  set?: Record<string, unknown>;
  expect?: { column: string; value: unknown };
  /**
   * Inserts only: run in the insert's transaction before it, with the row's typed columns (a ledger's movement,
   * ledger.ts); what it returns is written with the row, and what it throws rolls both back.
   */
  before?(trx: Db, values: Record<string, unknown>): Promise<Record<string, unknown>>;
}

const serverColumns = (def: ResourceDef, set: Record<string, unknown> | undefined) =>
  Object.fromEntries(Object.entries(set ?? {}).map(([c, v]) => [c, toColumn(c, def.columns[c].type, v)]));

export async function insertRow(db: Db, def: ResourceDef, hooks: ResourceHooks | undefined, data: Record<string, unknown>, ctx: WriteContext, server: ServerWrite = {}): Promise<number> {
  const { columns, extra } = splitWrite(def, hooks, data);
  const owner = scopeColumn(def);
  await checkUnique(db, def, columns, undefined, ownerOf(def, ctx));
  const now = new Date().toISOString();
  const values = {
    ...columns,
    ...(await hooks?.beforeWrite?.(data, ctx, db)),
    ...(def.columns.created_at ? { created_at: now } : {}),
    ...(def.columns.updated_at ? { updated_at: now } : {}),
    ...(def.extra ? { extra: JSON.stringify(extra) } : {}),
    ...(owner ? { [owner]: ownerOf(def, ctx) } : {}),
    ...serverColumns(def, server.set),
  };
  return db.transaction().execute(async (trx) => {
    const moved = server.before ? await server.before(trx, values) : {};
    const { id } = await loose(trx).insertInto(def.table).values({ ...values, ...moved }).returning('id').executeTakeFirstOrThrow();
    await hooks?.afterWrite?.(trx, Number(id), data, { ...ctx, id: Number(id) });
    return Number(id);
  }).catch(mapConstraintError);
}

export async function updateRow(db: Db, def: ResourceDef, hooks: ResourceHooks | undefined, id: number, patch: Record<string, unknown>, ctx: WriteContext, server: ServerWrite = {}): Promise<void> {
  const { columns, extra } = splitWrite(def, hooks, patch);
  await checkUnique(db, def, columns, id);
  const parent = def.parentField ? columns[def.parentField] : undefined;
  if (typeof parent === 'number' && (await withDescendants(db, def, [id])).includes(parent)) throw new AppError(422, 'resource.parent_cycle');
  let extraJson: string | undefined;
  if (def.extra && Object.keys(extra).length) {
    const current = await loose(db).selectFrom(def.table).select('extra').where('id', '=', id).executeTakeFirst();
    extraJson = JSON.stringify({ ...parseExtra(current?.extra), ...extra });
  }
  const values = {
    ...columns,
    ...(await hooks?.beforeWrite?.(patch, ctx, db)),
    ...(def.columns.updated_at ? { updated_at: new Date().toISOString() } : {}),
    ...(extraJson ? { extra: extraJson } : {}),
    ...serverColumns(def, server.set),
  };
  const expect = server.expect;
  await db.transaction().execute(async (trx) => {
    if (Object.keys(values).length) {
      let update = loose(trx).updateTable(def.table).set(values).where('id', '=', id);
      if (expect) update = update.where(expect.column, '=', expect.value);
      const res = await update.executeTakeFirst();
      if (expect && Number(res.numUpdatedRows) !== 1) throw new AppError(409, 'resource.changed');
    }
    await hooks?.afterWrite?.(trx, id, patch, ctx);
  }).catch(mapConstraintError);
}

/** Ids of `ids` that exist within `scope` (all of them when the resource is not scoped). */
export async function idsInScope(db: Db, def: ResourceDef, ids: number[], scope?: number[]): Promise<number[]> {
  const rows = await inScope(loose(db).selectFrom(def.table).select('id').where('id', 'in', ids), def, scope, 'owner').execute();
  return rows.map((r) => Number(r.id));
}

/** One transaction from beforeDelete to afterDelete (the contract in hooks/types.ts); afterDeleteCommitted after it. */
export async function deleteRows(db: Db, def: ResourceDef, hooks: ResourceHooks | undefined, ids: number[], ctx: WriteContext): Promise<number> {
  const { n, all, doomed } = await db.transaction().execute(async (trx) => {
    const doomed = await hooks?.beforeDelete?.(trx, ids, ctx);
    const all = def.parentField ? await withDescendants(trx, def, ids) : ids;
    // Counted before deleting: a cascade inside the statement makes SQLite's and PostgreSQL's own counts differ.
    const { n } = await loose(trx).selectFrom(def.table).select((eb) => eb.fn.countAll().as('n')).where('id', 'in', all).executeTakeFirstOrThrow();
    await loose(trx).deleteFrom(def.table).where('id', 'in', all).execute().catch(mapConstraintError);
    await hooks?.afterDelete?.(trx, all, ctx, doomed);
    return { n: Number(n), all, doomed };
  });
  await hooks?.afterDeleteCommitted?.(all, ctx, doomed);
  return n;
}

/** Tree rows (menus, labels): a deleted parent takes its subtree with it, never leaving orphans. */
async function withDescendants(db: Db, def: ResourceDef, ids: number[]): Promise<number[]> {
  const all = new Set(ids);
  let frontier = ids;
  while (frontier.length) {
    const children = await loose(db).selectFrom(def.table).select('id').where(def.parentField!, 'in', frontier).execute();
    frontier = children.map((c) => Number(c.id)).filter((id) => !all.has(id));
    frontier.forEach((id) => all.add(id));
  }
  return [...all];
}

/** Whom a hospital-scoped row reaches: its own hospital, or also the hospital its `sharedWith` column names (scoped-tables.ts). */
export type Reach = 'shared' | 'owner';

/** The column naming the second hospital a hospital-scoped resource's rows are shared with (scoped-tables.ts), if any. */
export const sharedColumn = (def: Pick<ResourceDef, 'scope' | 'table'>): string | undefined =>
  (def.scope === 'hospital' ? SCOPED_TABLES[def.table]?.sharedWith : undefined);

function inScope<Q extends { where: (...args: Untyped[]) => Q }>(query: Q, def: ResourceDef, scope?: number[], reach: Reach = 'shared'): Q {
  if (!scope) return query;
  if (def.scope === 'hospitals') return query.where(`${def.table}.id`, 'in', scope);
  if (def.scope === 'members') {
    // Someone who belongs to at least one of these hospitals and to no other.
    const via = def.virtual!.hospital_id!.via;
    const memberships = (eb: Untyped) => eb.selectFrom(`${via.table} as m`).select(`m.${via.key}`).whereRef(`m.${via.key}`, '=', `${def.table}.id`);
    return query.where((eb: Untyped) => eb.and([
      eb.exists(memberships(eb).where(`m.${via.column}`, 'in', scope)),
      eb.not(eb.exists(memberships(eb).where(`m.${via.column}`, 'not in', scope))),
    ]));
  }
  const owner = scopeColumn(def);
  const shared = reach === 'shared' ? sharedColumn(def) : undefined;
  if (owner && shared) return query.where((eb: Untyped) => eb.or([eb(`${def.table}.${owner}`, 'in', scope), eb(`${def.table}.${shared}`, 'in', scope)]));
  return owner ? query.where(`${def.table}.${owner}`, 'in', scope) : query;
}

/** Whose a new row is: the hospital the user works in, or the user. */
function ownerOf(def: ResourceDef, ctx: WriteContext): number | undefined {
  if (def.scope === 'hospital') return ctx.hospitalId ?? 0;
  if (def.scope === 'user') return ctx.user.id;
  return undefined;
}

function selection(def: ResourceDef): string[] {
  return [...readableColumns(def), ...(def.extra ? ['extra'] : [])].map((c) => `${def.table}.${c}`);
}

/**
 * `SELECT <the resource's readable columns> FROM <table>`, built once per database and resource: Kysely parses
 * every column reference anew on each build, which on a list of twenty columns cost more than the rest of the
 * query (the builders are immutable, so the kept one is only ever extended, never changed).
 */
const rowSelects = new WeakMap<Db, WeakMap<ResourceDef, SelectQueryBuilder<Untyped, Untyped, Untyped>>>();
function selectRows(db: Db, def: ResourceDef): SelectQueryBuilder<Untyped, Untyped, Untyped> {
  let byDef = rowSelects.get(db);
  if (!byDef) rowSelects.set(db, (byDef = new WeakMap()));
  let query = byDef.get(def);
  if (!query) {
    query = loose(db).selectFrom(def.table).select(selection(def));
    if (Object.values(def.virtual ?? {}).some((v) => v.read)) query = query.select((eb) => virtualReads(eb, def));
    byDef.set(def, query);
  }
  return query;
}

/** JSON columns are stored as text on both databases; values arrive as JSON. Text lengths were checked with the body. */
function toColumn(key: string, type: ColumnType, value: unknown): unknown {
  // An empty text is a value; an empty number or date field means "none".
  if (value === null || (value === '' && type !== 'string')) return null;
  if (type === 'json') return JSON.stringify(value);
  const v = coerceValue(key, type, value, WRITE_LIMITS.bodyChars);
  // An integer column written is a PostgreSQL integer (the few bigint ones are not writable): past it, the write is refused.
  if (type === 'integer' && typeof v === 'number' && !(v >= -MAX_ID - 1 && v <= MAX_ID)) {
    throw new AppError(422, 'resource.bad_value', { column: key, expected: 'msg:expected.integer' });
  }
  return v;
}

/** JSON columns are parsed, extra fields spread into the row (real columns win); hooks attach what they own. */
async function finish(db: Db, def: ResourceDef, hooks: ResourceHooks | undefined, rows: Record<string, unknown>[]): Promise<Row[]> {
  const jsonColumns = Object.entries(def.columns).filter(([n, c]) => c.type === 'json' && !(def.extra && n === 'extra')).map(([n]) => n);
  // Nothing to parse or spread: the driver's rows are this request's own, so they are answered as they are.
  const flat = !jsonColumns.length && !def.extra ? rows as Row[] : rows.map((raw) => {
    const r = { ...raw };
    for (const c of jsonColumns) if (typeof r[c] === 'string') r[c] = parseJson(r[c] as string);
    if (!def.extra) return r as Row;
    const { extra, ...rest } = r;
    return { ...parseExtra(extra), ...rest } as Row;
  });
  return hooks?.afterRead ? hooks.afterRead(db, flat) : flat;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function parseExtra(text: unknown): Record<string, unknown> {
  try {
    const v = JSON.parse(String(text ?? '{}'));
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/** Body fields go to real columns (typed), to the hooks, or — when the resource allows — to `extra`. */
function splitWrite(def: ResourceDef, hooks: ResourceHooks | undefined, data: Record<string, unknown>) {
  const writable = new Set(writableColumns(def));
  const skip = new Set([...(hooks?.consumes ?? []), ...Object.keys(def.columns), ...Object.keys(def.virtual ?? {}), 'extra']);
  const columns: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (writable.has(key)) columns[key] = toColumn(key, def.columns[key].type, value);
    else if (def.extra && !skip.has(key) && /^[a-z_][a-z0-9_]{0,63}$/i.test(key)) extra[key] = value;
  }
  return { columns, extra };
}

/**
 * A scoped resource is unique per owner: two centres may each have case 2026-0001, two doctors each a
 * category "Teaching". `owner`: the new row's owner; an updated row keeps its own.
 */
async function checkUnique(db: Db, def: ResourceDef, columns: Record<string, unknown>, exceptId?: number, owner?: number): Promise<void> {
  const ownerColumn = scopeColumn(def);
  for (const [name, col] of Object.entries(def.columns)) {
    if (!col.unique || columns[name] === undefined || columns[name] === null) continue;
    let q = loose(db).selectFrom(def.table).select('id').where(name, '=', columns[name]);
    if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
    if (ownerColumn) {
      if (exceptId !== undefined) q = q.where(ownerColumn, '=', (eb: ExpressionBuilder<Untyped, Untyped>) => eb.selectFrom(def.table).select(ownerColumn).where('id', '=', exceptId));
      else q = q.where(ownerColumn, '=', owner ?? 0);
    }
    if (await q.executeTakeFirst()) {
      throw new AppError(409, 'resource.duplicate', { field: name, value: String(columns[name]) },
        { [name]: [{ key: 'resource.duplicate', params: { field: name, value: String(columns[name]) } }] });
    }
  }
}
