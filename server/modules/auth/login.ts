import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import { findUserByName, hospitalsOf } from '../users/queries.js';
import { openSealedPassword } from './challenge.js';
import { accountState, LOGIN_LOCK_MINUTES, lockEnd, MAX_FAILED_ATTEMPTS, minutesLeft } from './lockout.js';
import { sql } from 'kysely';
import { verifyPassword } from './passwords.js';
import { issueToken } from './tokens.js';

export interface LoginInput { username: string; password: string; key_id: string }
export interface ClientInfo { ip: string; userAgent?: string }

/** The whole login decision; every outcome, success or not, lands in the login log. */
export async function login(db: Db, input: LoginInput, client: ClientInfo, ttlSeconds: number) {
  const now = new Date();
  const record = (userId: number | null, success: boolean, reason: string) =>
    db.insertInto('login_logs').values({
      user_id: userId, username: input.username.slice(0, 64), success: success ? 1 : 0, reason,
      ip: client.ip, user_agent: client.userAgent ?? null, created_at: now.toISOString(),
    }).execute();

  const opened = await openSealedPassword(db, input.key_id, input.password);
  if (!opened.ok) {
    await record(null, false, opened.reason);
    throw new AppError(400, opened.reason === 'undecryptable' ? 'auth.password_undecryptable' : 'auth.challenge_invalid');
  }

  const user = await findUserByName(db, input.username);
  if (!user) {
    await record(null, false, 'unknown_user');
    throw new AppError(422, 'auth.wrong_credentials');
  }

  const state = accountState(user, now);
  if (state !== 'ok') {
    await record(user.id, false, state);
    if (state === 'login_locked') throw new AppError(403, 'auth.login_locked', { minutes: minutesLeft(user.login_locked_until!, now) });
    throw new AppError(403, `auth.user_${state}`);
  }

  if (!(await verifyPassword(opened.password, user.password_hash))) {
    const failed = await countFailure(db, user.id, now);
    await record(user.id, false, failed >= MAX_FAILED_ATTEMPTS ? 'wrong_password_locked' : 'wrong_password');
    if (failed >= MAX_FAILED_ATTEMPTS) throw new AppError(403, 'auth.login_locked', { minutes: LOGIN_LOCK_MINUTES });
    throw new AppError(422, 'auth.wrong_credentials_left', { left: MAX_FAILED_ATTEMPTS - failed, minutes: LOGIN_LOCK_MINUTES });
  }

  await db.updateTable('users').set({ failed_attempts: 0, login_locked_until: null }).where('id', '=', user.id).execute();
  const hospitals = await hospitalsOf(db, user.id);
  const token = await issueToken(db, user.id, hospitals[0]?.id ?? null, ttlSeconds);
  await record(user.id, true, 'ok');
  // user_id lets the browser fetch /users/detail/{id} right after login (spec §7: user info by the id in session storage).
  return { token_type: 'Bearer' as const, access_token: token, expires_in: ttlSeconds, user_id: user.id };
}

/**
 * Counts a wrong password in the database itself, so concurrent attempts cannot be under-counted;
 * the attempt that reaches five sets the lock and restarts the count for after it.
 */
async function countFailure(db: Db, userId: number, now: Date): Promise<number> {
  // RETURNING gives each attempt the count its own increment produced, on SQLite and PostgreSQL alike.
  const { failed_attempts } = await db.updateTable('users').set({ failed_attempts: sql<number>`failed_attempts + 1` })
    .where('id', '=', userId).returning('failed_attempts').executeTakeFirstOrThrow();
  if (failed_attempts >= MAX_FAILED_ATTEMPTS) {
    await db.updateTable('users').set({ failed_attempts: 0, login_locked_until: lockEnd(now) }).where('id', '=', userId).execute();
  }
  return failed_attempts;
}

/** The lock screen asks for the password again; a wrong one answers `success: false` and does not lock the account. */
export async function verifyLockScreen(db: Db, userId: number, keyId: string, sealed: string): Promise<boolean> {
  const opened = await openSealedPassword(db, keyId, sealed);
  if (!opened.ok) throw new AppError(400, opened.reason === 'undecryptable' ? 'auth.password_undecryptable' : 'auth.challenge_invalid');
  const user = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
  return !!user && (await verifyPassword(opened.password, user.password_hash));
}
