import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/connect.js';

/** Only a hash of each token is stored, so a leaked database does not leak sessions. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function issueToken(db: Db, userId: number, hospitalId: number | null, ttlSeconds: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  await db.insertInto('auth_tokens').values({
    token_hash: hashToken(token),
    user_id: userId,
    hospital_id: hospitalId,
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + ttlSeconds * 1000).toISOString(),
    revoked_at: null,
  }).execute();
  return token;
}

export async function revokeToken(db: Db, tokenHash: string): Promise<void> {
  await db.updateTable('auth_tokens').set({ revoked_at: new Date().toISOString() }).where('token_hash', '=', tokenHash).execute();
}

export async function setTokenHospital(db: Db, tokenHash: string, hospitalId: number): Promise<void> {
  await db.updateTable('auth_tokens').set({ hospital_id: hospitalId }).where('token_hash', '=', tokenHash).execute();
}

/** Locks (a time) or unlocks (null) the screen of one session: a locked session is refused everything but unlocking. */
export async function setTokenScreenLock(db: Db, tokenHash: string, at: string | null): Promise<void> {
  await db.updateTable('auth_tokens').set({ locked_at: at }).where('token_hash', '=', tokenHash).execute();
}
