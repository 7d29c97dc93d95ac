import type { Kysely } from 'kysely';
import type { Db } from '../db/connect.js';
import { AppError } from '../http/errors.js';
import { scopeColumn, type LedgerDef, type ResourceDef } from './definition.js';
import type { Untyped } from './untyped.js';

/** Resource tables are named by data (untyped.ts). */
const loose = (db: Db) => db as unknown as Kysely<Untyped>;

/**
 * A ledger row's movement of its balance (resource `"ledger"`, definition.ts), inside the transaction that inserts the
 * row, before the insert: what it returns (the `link` column) is written with the row, and a refusal rolls both back.
 *
 * - add: `INSERT … ON CONFLICT (owner, key) DO UPDATE SET balance = balance + excluded.balance`: the first movement of a
 *   key creates its balance row (with the `copy` columns), later ones add to it; two first movements at once make one
 *   row (the unique index over owner and key that the migration creates is what the conflict names).
 * - take: `UPDATE … SET balance = balance - q WHERE owner AND key AND balance >= q`: the condition is evaluated on the
 *   row as it is when the statement runs (SQLite writes one at a time; PostgreSQL re-reads a row another transaction
 *   changed before it updates it), so of parallel takes only those the balance covers succeed and it never goes below
 *   zero. A take the balance does not cover is a translated 422 naming what is left.
 *
 * `values` are the row's columns as they will be inserted (typed); `owner` is its hospital (or user).
 */
export async function moveBalance(trx: Db, def: ResourceDef, balances: ResourceDef, values: Record<string, unknown>): Promise<Record<string, unknown>> {
  const l = def.ledger as LedgerDef;
  const quantity = Number(values[l.quantity]);
  if (!Number.isFinite(quantity) || quantity <= 0) throw new AppError(422, 'ledger.quantity', { field: l.quantity });
  const direction = String(values[l.direction] ?? '');
  const ownerColumn = scopeColumn(def);
  const key: Record<string, unknown> = Object.fromEntries(l.key.map((c) => [c, values[c]]));
  const missing = l.key.find((c) => key[c] === null || key[c] === undefined || key[c] === '');
  if (missing) throw new AppError(422, 'ledger.key_missing', { field: missing });
  if (ownerColumn) key[ownerColumn] = values[ownerColumn];
  const now = new Date().toISOString();
  const stamp = balances.columns.updated_at ? { updated_at: now } : {};
  const t = balances.table;
  const where = <Q extends { where: (c: string, op: '=', v: unknown) => Q }>(q: Q) => Object.entries(key).reduce((acc, [c, v]) => acc.where(`${t}.${c}`, '=', v), q);

  let id: unknown;
  if (l.add.includes(direction)) {
    const row = {
      ...key,
      ...Object.fromEntries((l.copy ?? []).map((c) => [c, values[c] ?? null])),
      [l.balance]: quantity,
      ...(balances.columns.created_at ? { created_at: now } : {}),
      ...stamp,
    };
    const res = await loose(trx).insertInto(t).values(row)
      .onConflict((oc) => oc.columns(Object.keys(key)).doUpdateSet((eb) => ({
        [l.balance]: eb(eb.ref(`${t}.${l.balance}`), '+', eb.ref(`excluded.${l.balance}`)),
        ...(balances.columns.updated_at ? { updated_at: eb.ref('excluded.updated_at') } : {}),
      })))
      .returning('id').executeTakeFirstOrThrow();
    id = res.id;
  } else if (l.take.includes(direction)) {
    const res = await where(loose(trx).updateTable(t)
      .set((eb) => ({ [l.balance]: eb(eb.ref(`${t}.${l.balance}`), '-', quantity), ...stamp })))
      .where(`${t}.${l.balance}`, '>=', quantity)
      .returning('id').executeTakeFirst();
    if (!res) {
      const held = await where(loose(trx).selectFrom(t).select(`${t}.${l.balance} as left`)).executeTakeFirst();
      if (!held) throw new AppError(422, 'ledger.no_balance');
      throw new AppError(422, 'ledger.insufficient', { left: Number(held.left), quantity });
    }
    id = res.id;
  } else {
    throw new AppError(422, 'ledger.direction', { field: l.direction });
  }
  return l.link ? { [l.link]: Number(id) } : {};
}
