import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import type { ClientInfo } from '../auth/login.js';
import { accountState } from '../auth/lockout.js';
import { hashPassword } from '../auth/passwords.js';

/** Who the outside sign-in vouched for, and how they are to be found among our users. */
export interface OutsideIdentity {
  hospitalId: number;
  /** users.name (OIDC claim), users.phone or users.email (messaging app) */
  match: 'name' | 'phone' | 'email';
  value: string;
  /** A display name for a user created now. */
  realname?: string;
  /** login_logs.reason prefix: sso, im */
  via: 'sso' | 'im';
}

export interface Creation { allowed: boolean; roleId: number | null }

/**
 * The user an outside sign-in maps to. A known user must work in the hospital whose provider vouched for them and
 * be allowed to log in (not disabled, locked or expired); an unknown one is created with the configured role when the
 * hospital allows it, and refused otherwise. Every outcome lands in the login log, as password logins do.
 */
export async function userForIdentity(db: Db, who: OutsideIdentity, creation: Creation, client: ClientInfo): Promise<number> {
  const now = new Date();
  const value = who.value.trim();
  const record = (userId: number | null, success: boolean, reason: string) => db.insertInto('login_logs').values({
    user_id: userId, username: value.slice(0, 64), success: success ? 1 : 0, reason: `${who.via}_${reason}`,
    ip: client.ip, user_agent: client.userAgent ?? null, created_at: now.toISOString(),
  }).execute();

  if (!value || value.length > 64) {
    await record(null, false, 'claim_missing');
    throw new AppError(403, 'sso.claim_missing');
  }
  const user = await db.selectFrom('users').selectAll().where(who.match, '=', value).orderBy('id').executeTakeFirst();
  if (!user) {
    if (!creation.allowed || creation.roleId === null || who.match !== 'name') {
      await record(null, false, 'unknown_user');
      throw new AppError(403, 'sso.unknown_user');
    }
    const id = await createUser(db, value, who, creation.roleId, now);
    // Written before anyone is signed in, so outside the row scope; the row is the vouching hospital's.
    await db.withoutPlugins().insertInto('operation_logs').values({
      user_id: id, username: value, method: 'GET', path: '/api/auth/sso/callback', route: '/api/auth/sso/callback', status_code: 200,
      payload: JSON.stringify({ created_user: value, hospital_id: who.hospitalId, role_id: creation.roleId }), ip: client.ip, created_at: now.toISOString(),
      hospital_id: who.hospitalId,
    }).execute();
    await record(id, true, 'created');
    return id;
  }
  const member = await db.selectFrom('user_hospitals').select('user_id').where('user_id', '=', user.id).where('hospital_id', '=', who.hospitalId).executeTakeFirst();
  if (!member) {
    await record(user.id, false, 'not_in_hospital');
    throw new AppError(403, 'auth.hospital_not_allowed');
  }
  const state = accountState(user, now);
  if (state !== 'ok') {
    await record(user.id, false, state);
    throw new AppError(403, `auth.user_${state}`);
  }
  await record(user.id, true, 'ok');
  return user.id;
}

async function createUser(db: Db, name: string, who: OutsideIdentity, roleId: number, now: Date): Promise<number> {
  // A password nobody knows: the account signs in through its provider until an administrator sets one.
  const passwordHash = await hashPassword(randomBytes(24).toString('base64url'));
  const at = now.toISOString();
  return db.transaction().execute(async (tx) => {
    const { id } = await tx.insertInto('users').values({
      name, realname: (who.realname?.trim() || name).slice(0, 64), password_hash: passwordHash, email: null, phone: null, status: 1, locked: 0,
      expires_at: null, failed_attempts: 0, login_locked_until: null, extra: JSON.stringify({ created_by: who.via }), created_at: at, updated_at: at,
    }).returning('id').executeTakeFirstOrThrow();
    await tx.insertInto('user_roles').values({ user_id: id, role_id: roleId }).execute();
    await tx.insertInto('user_hospitals').values({ user_id: id, hospital_id: who.hospitalId }).execute();
    return id;
  });
}
