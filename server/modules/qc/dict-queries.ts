import { sql } from 'kysely';
import { isPostgres, type Db } from '../../db/connect.js';

/**
 * The SQL of the QC dictionary (dict-routes.ts): a hospital's ranked lists. Every statement names the hospital, as
 * qc_dict is not a row-scoped table: another hospital's entries are as absent as missing ones.
 */

/** First key of PostgreSQL's two-key advisory lock: "QC dictionary store"; the second is the hospital id. */
export const PG_LOCK_CLASS = 0x71c;

export interface NewDictEntry { name: string; en_name?: string; code?: string; rank?: number }
export interface DictChange { id: number; name?: string; en_name?: string; code?: string; rank?: number; enabled?: 0 | 1 }

/** Those of `ids` that are entries of the hospital. */
export const dictEntriesOf = (db: Db, hospitalId: number, ids: number[]) =>
  db.selectFrom('qc_dict').select(['id', 'type', 'name']).where('hospital_id', '=', hospitalId).where('id', 'in', ids).execute();

/** The hospital's lists (or the one of `type`), by list, rank and id. */
export const dictLists = (db: Db, hospitalId: number, type: string | undefined) =>
  db.selectFrom('qc_dict').select(['id', 'type', 'name', 'en_name', 'code', 'rank', 'enabled'])
    .where('hospital_id', '=', hospitalId)
    .$if(type !== undefined, (q) => q.where('type', '=', type!))
    .orderBy('type').orderBy('rank').orderBy('id').limit(5000).execute();

/**
 * Adds the entries at the end of the list (or at their own rank): their ids, or the names already in the list or
 * repeated in the request, and then nothing is added. One store at a time per hospital: two parallel stores of one
 * name must not both pass the check (SQLite serialises its transactions; PostgreSQL takes an advisory lock).
 */
export async function storeDictEntries(db: Db, hospitalId: number, type: string, items: NewDictEntry[]): Promise<{ ids: number[] } | { clash: string[] }> {
  const names = items.map((i) => i.name.trim());
  return db.transaction().execute(async (trx) => {
    if (isPostgres(db)) await sql`select pg_advisory_xact_lock(${PG_LOCK_CLASS}, ${hospitalId})`.execute(trx);
    const taken = await trx.selectFrom('qc_dict').select('name').where('hospital_id', '=', hospitalId).where('type', '=', type).where('name', 'in', names).execute();
    const repeated = names.filter((n, i) => names.indexOf(n) !== i);
    const clash = [...new Set([...taken.map((t) => t.name), ...repeated])];
    if (clash.length) return { clash };
    const last = await trx.selectFrom('qc_dict').select((eb) => eb.fn.max('rank').as('rank')).where('hospital_id', '=', hospitalId).where('type', '=', type).executeTakeFirst();
    const now = new Date().toISOString();
    const start = Number(last?.rank ?? 0);
    const rows = await trx.insertInto('qc_dict').values(items.map((item, i) => ({
      hospital_id: hospitalId, type, name: item.name.trim(), en_name: item.en_name?.trim() || null, code: item.code?.trim() || null,
      rank: item.rank ?? start + i + 1, enabled: 1, created_at: now, updated_at: now,
    }))).returning('id').execute();
    return { ids: rows.map((r) => Number(r.id)) };
  });
}

/** Applies every change (text trimmed; an emptied optional text becomes null) in one transaction: all or nothing. */
export async function updateDictEntries(db: Db, hospitalId: number, items: DictChange[]): Promise<void> {
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    for (const { id, ...change } of items) {
      const set = Object.fromEntries(Object.entries(change).map(([k, v]) => [k, typeof v === 'string' ? v.trim() || (k === 'name' ? v : null) : v]));
      await trx.updateTable('qc_dict').set({ ...set, updated_at: now }).where('id', '=', id).where('hospital_id', '=', hospitalId).execute();
    }
  });
}

/** Moves an entry of the hospital to `rank`; whether there was one. */
export async function rankDictEntry(db: Db, hospitalId: number, id: number, rank: number): Promise<boolean> {
  const res = await db.updateTable('qc_dict').set({ rank, updated_at: new Date().toISOString() })
    .where('id', '=', id).where('hospital_id', '=', hospitalId).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
