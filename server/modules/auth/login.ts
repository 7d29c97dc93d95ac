import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import { findUserByName, hospitalsOf } from '../users/queries.js';
import { lockedUntil, releaseAttempts, reserveAttempt } from './attempts.js';
import { openSealedPassword } from './challenge.js';
import { accountState, LOGIN_LOCK_MINUTES, minutesLeft, type Reservation } from './lockout.js';
import { verifyAgainstDecoy, verifyPassword } from './passwords.js';
import { issueToken, setTokenScreenLock } from './tokens.js';

export interface LoginInput { username: string; password: string; key_id: string }
export interface ClientInfo { ip: string; userAgent?: string }

type LoginLog = (userId: number | null, success: boolean, reason: string) => Promise<unknown>;

export const loginLog = (db: Db, username: string, client: ClientInfo, now: Date): LoginLog => (userId, success, reason) =>
  db.insertInto('login_logs').values({
    user_id: userId, username: username.slice(0, 64), success: success ? 1 : 0, reason,
    ip: client.ip, user_agent: client.userAgent ?? null, created_at: now.toISOString(),
  }).execute();

const lockedError = (until: string | null, now: Date) => new AppError(423, 'auth.login_locked', { minutes: minutesLeft(until, now) });

/**
 * The whole login decision; every outcome, success or not, lands in the login log. An unknown user and a wrong
 * password answer alike (422, same words, same scrypt time); only the right password hears why an account may not
 * log in; a lock is told (423, minutes left) once in force, and while it is no password is checked.
 */
export async function login(db: Db, input: LoginInput, client: ClientInfo, ttlSeconds: number) {
  const now = new Date();
  const record = loginLog(db, input.username, client, now);

  const opened = await openSealedPassword(db, input.key_id, input.password);
  if (!opened.ok) {
    await record(null, false, opened.reason);
    throw new AppError(400, opened.reason === 'undecryptable' ? 'auth.password_undecryptable' : 'auth.challenge_invalid');
  }

  const user = await findUserByName(db, input.username);
  if (!user) {
    await verifyAgainstDecoy(opened.password);
    await record(null, false, 'unknown_user');
    throw new AppError(422, 'auth.wrong_credentials');
  }

  const checked = await checkPassword(db, user.id, opened.password, user.password_hash, now);
  if (checked.outcome === 'refused') {
    await record(user.id, false, 'login_locked');
    throw lockedError(checked.until, now);
  }
  if (checked.outcome === 'wrong') {
    await record(user.id, false, checked.locked ? 'wrong_password_locked' : 'wrong_password');
    if (checked.locked) throw new AppError(423, 'auth.login_locked', { minutes: LOGIN_LOCK_MINUTES });
    throw new AppError(422, 'auth.wrong_credentials');
  }

  const state = accountState(user, now);
  if (state !== 'ok') {
    await record(user.id, false, state);
    throw new AppError(403, `auth.user_${state}`);
  }
  const hospitals = await hospitalsOf(db, user.id);
  const token = await issueToken(db, user.id, hospitals[0]?.id ?? null, ttlSeconds);
  await record(user.id, true, 'ok');
  // user_id lets the browser fetch /users/detail/{id} right after login (spec §7: user info by the id in session storage).
  return { token_type: 'Bearer' as const, access_token: token, expires_in: ttlSeconds, user_id: user.id };
}

type Checked =
  | { outcome: 'refused'; until: string | null }
  | { outcome: 'wrong'; locked: boolean }
  | { outcome: 'right' };

/**
 * One password check under the five-failures rule, shared by login and the lock screen: a place is reserved first
 * (refused while locked, without looking at the password); a right password gives its places back.
 */
async function checkPassword(db: Db, userId: number, password: string, hash: string, now: Date): Promise<Checked> {
  const reservation: Reservation | null = await reserveAttempt(db, userId, now);
  if (!reservation) return { outcome: 'refused', until: await lockedUntil(db, userId) };
  if (!(await verifyPassword(password, hash))) return { outcome: 'wrong', locked: reservation.lockedUntil !== null };
  await releaseAttempts(db, userId, reservation);
  return { outcome: 'right' };
}

export interface LockScreenCaller { id: number; name: string; tokenHash: string }

/**
 * The lock screen asks for the password again, under the same five-failures rule as login: a wrong one answers
 * `success: false`; the fifth locks the account (423), and while it is locked nothing is checked. A right one
 * unlocks the session on the server.
 */
export async function verifyLockScreen(db: Db, caller: LockScreenCaller, keyId: string, sealed: string, client: ClientInfo): Promise<boolean> {
  const now = new Date();
  const opened = await openSealedPassword(db, keyId, sealed);
  if (!opened.ok) throw new AppError(400, opened.reason === 'undecryptable' ? 'auth.password_undecryptable' : 'auth.challenge_invalid');
  const user = await db.selectFrom('users').select('password_hash').where('id', '=', caller.id).executeTakeFirst();
  if (!user) return false;
  const record = loginLog(db, caller.name, client, now);
  const checked = await checkPassword(db, caller.id, opened.password, user.password_hash, now);
  if (checked.outcome === 'refused') {
    await record(caller.id, false, 'lock_screen_login_locked');
    throw lockedError(checked.until, now);
  }
  if (checked.outcome === 'wrong') {
    await record(caller.id, false, checked.locked ? 'lock_screen_wrong_password_locked' : 'lock_screen_wrong_password');
    if (checked.locked) throw new AppError(423, 'auth.login_locked', { minutes: LOGIN_LOCK_MINUTES });
    return false;
  }
  await setTokenScreenLock(db, caller.tokenHash, null);
  return true;
}
