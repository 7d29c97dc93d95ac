import type { Kysely } from 'kysely';
import type { Db } from '../../db/connect.js';
import { COPY_PARTS, keyOf, type CopyPart } from './parts.js';

/*
 * These tables are hospital-owned configuration, not rows of row-level access (server/db/scoped-tables.ts): the
 * copy reads one named hospital and writes the working one, both checked by the route against the caller's hospitals.
 */
const any = (db: Db) => db as unknown as Kysely<Record<string, Record<string, unknown>>>;

/** How many rows of each part a hospital has. */
export async function partCounts(db: Db, hospitalId: number, parts: readonly CopyPart[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const part of parts) {
    const row = await any(db).selectFrom(COPY_PARTS[part].table).select((eb) => eb.fn.countAll().as('n')).where('hospital_id', '=', hospitalId).executeTakeFirst();
    out[part] = Number(row?.n ?? 0);
  }
  return out;
}

/**
 * Copies the part's rows of hospital `from` that `to` does not have (by the part's key) into `to`, inside the
 * caller's transaction. A template copied as the default of its type stays the default only where `to` has none.
 */
export async function copyPart(trx: Db, part: CopyPart, from: number, to: number): Promise<{ copied: number; skipped: number }> {
  const spec = COPY_PARTS[part];
  const source = await any(trx).selectFrom(spec.table).select([...spec.copied]).where('hospital_id', '=', from).orderBy('id').execute();
  const existing = await any(trx).selectFrom(spec.table).select([...spec.key, ...(part === 'report_templates' ? ['is_default'] : [])]).where('hospital_id', '=', to).execute();
  const have = new Set(existing.map((r) => keyOf(part, r)));
  const defaults = new Set(existing.filter((r) => Number(r.is_default) === 1).map((r) => r.type));
  const now = new Date().toISOString();
  const rows = source.filter((r) => !have.has(keyOf(part, r))).map((r) => {
    const row: Record<string, unknown> = { ...r, hospital_id: to, created_at: now, updated_at: now };
    if (part === 'report_templates' && Number(r.is_default) === 1) {
      if (defaults.has(r.type)) row.is_default = 0;
      else defaults.add(r.type);
    }
    return row;
  });
  if (rows.length) await any(trx).insertInto(spec.table).values(rows).execute();
  return { copied: rows.length, skipped: source.length - rows.length };
}
