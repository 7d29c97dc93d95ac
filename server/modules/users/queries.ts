import type { Db } from '../../db/connect.js';
import type { SessionUser } from '../../http/types.js';
import { hashToken } from '../auth/tokens.js';

export interface RoleSummary { id: number; name: string; identification: string; extra: string[] }

/** Permissions from each role's extra JSON, merged and de-duplicated (spec §6). */
export function mergePermissions(roles: RoleSummary[]): string[] {
  return [...new Set(roles.flatMap((r) => r.extra))].sort();
}

export function parseRoleExtra(extra: string): string[] {
  try {
    const v = JSON.parse(extra);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export async function rolesOf(db: Db, userId: number): Promise<RoleSummary[]> {
  const rows = await db.selectFrom('user_roles').innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(['roles.id', 'roles.name', 'roles.identification', 'roles.extra'])
    .where('user_roles.user_id', '=', userId).orderBy('roles.id').execute();
  return rows.map((r) => ({ ...r, extra: parseRoleExtra(r.extra) }));
}

export async function hospitalsOf(db: Db, userId: number) {
  return db.selectFrom('user_hospitals').innerJoin('hospitals', 'hospitals.id', 'user_hospitals.hospital_id')
    .select(['hospitals.id', 'hospitals.code', 'hospitals.name', 'hospitals.en_name', 'hospitals.logo'])
    .where('user_hospitals.user_id', '=', userId).orderBy('hospitals.id').execute();
}

export async function findUserByName(db: Db, name: string) {
  return db.selectFrom('users').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function findUserById(db: Db, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Resolves a bearer token to the session user, or null when unknown, revoked, expired or the user may no longer log in.
 * Roles and hospitals are read afresh on every call: the guard calls it on every request outside the image routes.
 */
export async function sessionFromToken(db: Db, token: string): Promise<SessionUser | null> {
  const tokenHash = hashToken(token);
  const now = new Date().toISOString();
  const row = await db.selectFrom('auth_tokens').innerJoin('users', 'users.id', 'auth_tokens.user_id')
    .select(['users.id', 'users.name', 'users.realname', 'users.status', 'users.locked', 'users.expires_at', 'auth_tokens.hospital_id', 'auth_tokens.locked_at'])
    .where('auth_tokens.token_hash', '=', tokenHash)
    .where('auth_tokens.revoked_at', 'is', null)
    .where('auth_tokens.expires_at', '>', now)
    .executeTakeFirst();
  if (!row || row.status !== 1 || row.locked === 1 || (row.expires_at && row.expires_at <= now)) return null;
  const [roles, hospitals] = await Promise.all([rolesOf(db, row.id), hospitalsOf(db, row.id)]);
  const hospitalIds = hospitals.map((h) => h.id);
  return {
    id: row.id,
    name: row.name,
    realname: row.realname,
    identification: roles.map((r) => r.identification),
    permissions: mergePermissions(roles),
    hospitalIds,
    // The hospital chosen at login or switch, only while the user still belongs to it: an administrator's
    // removal ends the session's access to that hospital at its next request.
    hospitalId: row.hospital_id !== null && hospitalIds.includes(row.hospital_id) ? row.hospital_id : null,
    tokenHash,
    screenLocked: row.locked_at !== null,
  };
}
