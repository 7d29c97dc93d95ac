import { savedLanguage } from './language.js';
import type { CompiledQuery } from 'kysely';
import { jsonArrayFrom as pgJsonArrayFrom } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArrayFrom } from 'kysely/helpers/sqlite';
import { isPostgres, type Db } from '../../db/connect.js';
import type { SessionUser } from '../../http/types.js';
import { hashToken } from '../auth/tokens.js';

/** What a user's roles allow: what hasPermission and isAdmin read. */
export type RoleAccess = Pick<SessionUser, 'identification' | 'roleNames' | 'permissions'>;

export interface RoleSummary { id: number; name: string; en_name: string | null; identification: string; extra: string[] }

/** Permissions from each role's extra JSON, merged and de-duplicated (spec §6). */
export function mergePermissions(roles: Pick<RoleSummary, 'extra'>[]): string[] {
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
    .select(['roles.id', 'roles.name', 'roles.en_name', 'roles.identification', 'roles.extra'])
    .where('user_roles.user_id', '=', userId).orderBy('roles.id').execute();
  return rows.map((r) => ({ ...r, extra: parseRoleExtra(r.extra) }));
}

/** What user `userId`'s roles allow now, read afresh (as their next session would have it): for checks made without their session. */
export async function roleAccessOf(db: Db, userId: number): Promise<RoleAccess> {
  const roles = await rolesOf(db, userId);
  return { identification: roles.map((r) => r.identification), roleNames: roles.flatMap((r) => (r.en_name ? [r.name, r.en_name] : [r.name])), permissions: mergePermissions(roles) };
}

export async function hospitalsOf(db: Db, userId: number) {
  return db.selectFrom('user_hospitals').innerJoin('hospitals', 'hospitals.id', 'user_hospitals.hospital_id')
    .select(['hospitals.id', 'hospitals.code', 'hospitals.name', 'hospitals.en_name', 'hospitals.logo'])
    .where('user_hospitals.user_id', '=', userId).orderBy('hospitals.id').execute();
}

/** Every hospital of the group by name (a transport's receiving hospital is chosen among them). */
export async function groupHospitals(db: Db) {
  return db.selectFrom('hospitals').select(['id', 'name', 'en_name']).orderBy('id').execute();
}

export async function findUserByName(db: Db, name: string) {
  return db.selectFrom('users').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function findUserById(db: Db, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** An administrator lifts a login lockout: the failed-attempt count starts again. False: no such user. */
export async function clearLoginLock(db: Db, id: number): Promise<boolean> {
  const res = await db.updateTable('users').set({ failed_attempts: 0, login_locked_until: null, updated_at: new Date().toISOString() })
    .where('id', '=', id).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Stand-ins compiled into the session statement, replaced by each call's values (see sessionStatement). */
const TOKEN = '\u0000token';
const NOW = '\u0000now';

interface SessionRow {
  id: number; name: string; realname: string; status: number; locked: number; expires_at: string | null;
  hospital_id: number | null; locked_at: string | null;
  roles: { identification: string; name: string; en_name: string | null; extra: string }[] | string;
  hospitals: { id: number }[] | string;
  subspecialties: { id: number }[] | string;
}

/**
 * The token, its user, and the user's roles and hospitals as JSON arrays of correlated subqueries: one statement,
 * one round trip. Built and compiled once per database; each call only swaps in its parameters.
 */
const statements = new WeakMap<Db, CompiledQuery<SessionRow>>();
function sessionStatement(db: Db): CompiledQuery<SessionRow> {
  let compiled = statements.get(db);
  if (compiled) return compiled;
  const jsonArrayFrom = isPostgres(db) ? pgJsonArrayFrom : sqliteJsonArrayFrom;
  compiled = db.selectFrom('auth_tokens').innerJoin('users', 'users.id', 'auth_tokens.user_id')
    .select(['users.id', 'users.name', 'users.realname', 'users.status', 'users.locked', 'users.expires_at', 'auth_tokens.hospital_id', 'auth_tokens.locked_at'])
    .select((eb) => [
      jsonArrayFrom(eb.selectFrom('user_roles').innerJoin('roles', 'roles.id', 'user_roles.role_id')
        .select(['roles.identification', 'roles.name', 'roles.en_name', 'roles.extra']).whereRef('user_roles.user_id', '=', 'users.id').orderBy('roles.id')).as('roles'),
      jsonArrayFrom(eb.selectFrom('user_hospitals').innerJoin('hospitals', 'hospitals.id', 'user_hospitals.hospital_id')
        .select('hospitals.id').whereRef('user_hospitals.user_id', '=', 'users.id').orderBy('hospitals.id')).as('hospitals'),
      jsonArrayFrom(eb.selectFrom('user_subspecialties').select('user_subspecialties.subspecialty_id as id')
        .whereRef('user_subspecialties.user_id', '=', 'users.id').orderBy('user_subspecialties.subspecialty_id')).as('subspecialties'),
    ])
    .where('auth_tokens.token_hash', '=', TOKEN)
    .where('auth_tokens.revoked_at', 'is', null)
    .where('auth_tokens.expires_at', '>', NOW)
    .compile() as CompiledQuery<SessionRow>;
  statements.set(db, compiled);
  return compiled;
}

/**
 * Resolves a bearer token to the session user, or null when unknown, revoked, expired or the user may no longer log in.
 * One statement (the guard runs it on every request outside the image routes), read afresh each time: a change made
 * by another process or straight in the database counts from the next request.
 */
export async function sessionFromToken(db: Db, token: string): Promise<SessionUser | null> {
  const tokenHash = hashToken(token);
  const now = new Date().toISOString();
  const statement = sessionStatement(db);
  const parameters = statement.parameters.map((p) => (p === TOKEN ? tokenHash : p === NOW ? now : p));
  const [row] = (await db.executeQuery<SessionRow>({ ...statement, parameters })).rows;
  if (!row || row.status !== 1 || row.locked === 1 || (row.expires_at && row.expires_at <= now)) return null;
  const hospitalIds = jsonRows(row.hospitals).map((h) => Number(h.id));
  return {
    id: row.id,
    name: row.name,
    realname: row.realname,
    ...roleAccess(row.roles),
    hospitalIds,
    subspecialtyIds: jsonRows(row.subspecialties).map((d) => Number(d.id)),
    // The hospital chosen at login or switch, only while the user still belongs to it: an administrator's
    // removal ends the session's access to that hospital at its next request.
    hospitalId: row.hospital_id !== null && hospitalIds.includes(row.hospital_id) ? row.hospital_id : null,
    tokenHash,
    screenLocked: row.locked_at !== null,
  };
}

/** Role sets seen lately, by their JSON text: a few distinct ones serve every session (one per combination of roles). */
const ROLE_ACCESS_KEPT = 256;
const roleAccessByText = new Map<string, RoleAccess>();

/**
 * What the session's roles allow. Derived from the roles as read in this request's statement, never from an older
 * read: SQLite answers them as JSON text, and the same text always derives the same access, so the parse, merge
 * and sort of an administrator's hundreds of permissions is done once per distinct text, not per request.
 * The arrays are frozen, as they are shared by every request whose roles read the same.
 */
function roleAccess(value: SessionRow['roles']): RoleAccess {
  if (typeof value !== 'string') return deriveRoleAccess(value);
  let access = roleAccessByText.get(value);
  if (!access) {
    access = deriveRoleAccess(jsonRows(value));
    roleAccessByText.set(value, access);
    if (roleAccessByText.size > ROLE_ACCESS_KEPT) roleAccessByText.delete(roleAccessByText.keys().next().value!);
  }
  return access;
}

function deriveRoleAccess(rows: { identification: string; name: string; en_name: string | null; extra: string }[]): RoleAccess {
  const roles = rows.map((r) => ({ identification: r.identification, name: r.name, extra: parseRoleExtra(r.extra) }));
  return {
    identification: Object.freeze(roles.map((r) => r.identification)) as string[],
    // Spec §6: a role named administrator (or demo administrator, admin) makes its holders administrators,
    // in whichever language the name was given.
    roleNames: Object.freeze(rows.flatMap((r) => (r.en_name ? [r.name, r.en_name] : [r.name]))) as string[],
    permissions: Object.freeze(mergePermissions(roles)) as string[],
  };
}

/** PostgreSQL's driver parses json; SQLite answers its text. */
function jsonRows<T>(value: T[] | string): T[] {
  return typeof value === 'string' ? JSON.parse(value) as T[] : value;
}

/**
 * Is user `id` within `scope` (the hospitals a sub-centre's administrator manages; undefined: an administrator,
 * everyone)? In scope: belongs to at least one of them and to no other, as the users resource's 'members' scope.
 */
export async function userInScope(db: Db, id: number, scope: number[] | undefined): Promise<boolean> {
  const theirs = (await db.selectFrom('user_hospitals').select('hospital_id').where('user_id', '=', id).execute()).map((r) => r.hospital_id);
  if (!scope) return true;
  return theirs.length > 0 && theirs.every((h) => scope.includes(h));
}

/** Saves `lang` (when given) in the user's extra JSON, keeping its other fields; answers the saved language. */
export async function userLanguage(db: Db, userId: number, lang?: 'zh-CN' | 'en-US'): Promise<'zh-CN' | 'en-US' | null> {
  const row = await db.selectFrom('users').select('extra').where('id', '=', userId).executeTakeFirstOrThrow();
  if (!lang) return savedLanguage(row.extra);
  let extra: Record<string, unknown> = {};
  try { extra = JSON.parse(row.extra || '{}') as Record<string, unknown>; } catch { /* unreadable: replaced */ }
  await db.updateTable('users').set({ extra: JSON.stringify({ ...extra, lang }), updated_at: new Date().toISOString() }).where('id', '=', userId).execute();
  return lang;
}

/** Up to 1000 users of a hospital, by id: a statistics filter's choices. */
export const usersOfHospital = (db: Db, hospitalId: number) =>
  db.selectFrom('users').innerJoin('user_hospitals', 'user_hospitals.user_id', 'users.id')
    .select(['users.id', 'users.name', 'users.realname']).where('user_hospitals.hospital_id', '=', hospitalId)
    .orderBy('users.id').limit(1000).execute();
