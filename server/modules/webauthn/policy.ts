import { mayUseSecurityKey, passwordlessRoles, SECURITY_KEY_SETTING } from '../../../src/core/securityKeys.js';
import type { Db } from '../../db/connect.js';
import { getSetting } from '../settings/queries.js';
import { rolesOf } from '../users/queries.js';

/** The roles an administrator allowed to sign in with a key (setting `webauthn_login`, `{ role_ids }`); none by default. */
export async function allowedRoles(db: Db): Promise<number[]> {
  return passwordlessRoles((await getSetting(db, SECURITY_KEY_SETTING))?.value ?? null);
}

/** Whether this user may register keys and sign in with one, read afresh on every call (roles change). */
export async function userMayUseKeys(db: Db, userId: number): Promise<boolean> {
  const [allowed, roles] = await Promise.all([allowedRoles(db), rolesOf(db, userId)]);
  return mayUseSecurityKey(roles.map((r) => r.id), allowed);
}
