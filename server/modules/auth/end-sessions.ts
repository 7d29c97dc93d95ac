import type { Db } from '../../db/connect.js';

/**
 * Ends every live session of a user except `keepTokenHash` (the session that changed its own password), by
 * revoking its token: a new password must shut out whoever held the old one. `db` may be a transaction, so the
 * sessions end with the password change or not at all. Callers then drop the user from in-process session caches.
 */
export async function endOtherSessions(db: Db, userId: number, keepTokenHash?: string): Promise<void> {
  let update = db.updateTable('auth_tokens').set({ revoked_at: new Date().toISOString() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keepTokenHash) update = update.where('token_hash', '!=', keepTokenHash);
  await update.execute();
}
