import type { Db } from '../db/connect.js';

export interface LiveSession { userId: number; hospitalIds: number[] }

/**
 * The session behind a token hash, when it still may use the realtime channel (not revoked, expired, screen-locked;
 * user enabled, unlocked, not expired), with the user's hospitals: what the RabbitMQ sweep re-checks.
 */
export async function liveSessionByHash(db: Db, tokenHash: string): Promise<LiveSession | null> {
  const now = new Date().toISOString();
  const row = await db.selectFrom('auth_tokens').innerJoin('users', 'users.id', 'auth_tokens.user_id')
    .select(['users.id', 'users.status', 'users.locked', 'users.expires_at'])
    .where('auth_tokens.token_hash', '=', tokenHash)
    .where('auth_tokens.revoked_at', 'is', null)
    .where('auth_tokens.locked_at', 'is', null)
    .where('auth_tokens.expires_at', '>', now)
    .executeTakeFirst();
  if (!row || row.status !== 1 || row.locked === 1 || (row.expires_at && row.expires_at <= now)) return null;
  const hospitals = await db.selectFrom('user_hospitals').select('hospital_id').where('user_id', '=', row.id).orderBy('hospital_id').execute();
  return { userId: row.id, hospitalIds: hospitals.map((h) => Number(h.hospital_id)) };
}
