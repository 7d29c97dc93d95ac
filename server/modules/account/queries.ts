import type { Updateable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { endOtherSessions } from '../auth/end-sessions.js';

/** What the SystemAccount page shows and edits of the signed-in user. */
export const profileOf = (db: Db, userId: number) =>
  db.selectFrom('users').select(['id', 'name', 'realname', 'email', 'phone']).where('id', '=', userId).executeTakeFirstOrThrow();

export const passwordHashOf = async (db: Db, userId: number): Promise<string> =>
  (await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow()).password_hash;

/**
 * Saves the user's own changes; a new password hash ends their other sessions (all but `keepTokenHash`) in the
 * same transaction, so the password and the sessions change together or not at all.
 */
export async function saveProfile(db: Db, userId: number, changes: Updateable<Database['users']>, keepTokenHash: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set(changes).where('id', '=', userId).execute();
    if (changes.password_hash) await endOtherSessions(trx, userId, keepTokenHash);
  });
}
