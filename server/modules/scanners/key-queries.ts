import type { Db } from '../../db/connect.js';

/** The SQL of scanner keys (admin-routes.ts): a scanner of the hospital, its key's hash stored or revoked. */

export const scannerOf = (db: Db, id: number, hospitalId: number) =>
  db.selectFrom('scanners').select(['id', 'name']).where('id', '=', id).where('hospital_id', '=', hospitalId).executeTakeFirst();

/** Stores a new key (its hash and shown prefix), which ends the old one. */
export async function storeScannerKey(db: Db, id: number, key: { hash: string; prefix: string }, at: string): Promise<void> {
  await db.updateTable('scanners').set({ key_hash: key.hash, key_prefix: key.prefix, key_revoked_at: null, updated_at: at }).where('id', '=', id).execute();
}

export async function revokeScannerKey(db: Db, id: number, at: string): Promise<void> {
  await db.updateTable('scanners').set({ key_revoked_at: at, updated_at: at }).where('id', '=', id).execute();
}
