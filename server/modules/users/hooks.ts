import { AppError } from '../../http/errors.js';
import type { Kysely } from 'kysely';
import { isAdmin } from '../../../src/core/admin.js';
import { directoriesOutside } from '../../../src/core/subspecialty.js';
import { beyondSubCentre, isAdminRole } from '../../../src/core/subCentreGrants.js';
import type { Database } from '../../db/schema.js';
import type { ResourceHooks, WriteContext } from '../../resources/hooks/types.js';
import { endOtherSessions } from '../auth/end-sessions.js';
import { hashPassword } from '../auth/passwords.js';
import { parseRoleExtra } from './queries.js';

/**
 * What a manager who is not an administrator (a sub-centre's administrator, spec §6) may give: hospitals among their
 * own, at least one for a new user (else the user would be nobody's to manage), no administrator role, and no role
 * holding a permission a sub-centre may not hand out (src/core/subCentreGrants.ts), else they could give someone,
 * or through them themselves, the roles page and from there every permission. Their own roles are not theirs to
 * change at all. Which users they may touch is the resource's 'members' scope (server/resources/user-scope.ts).
 */
async function checkManagerReach(data: Record<string, unknown>, ctx: WriteContext, db: Kysely<Database>): Promise<void> {
  const me = ctx.user;
  if (isAdmin({ identification: me.identification, roleNames: me.roleNames })) return;
  const hospitals = Array.isArray(data.hospital_ids) ? data.hospital_ids.map(Number) : undefined;
  if (ctx.creating && !hospitals?.length) throw new AppError(422, 'user.hospital_required');
  if (hospitals?.some((h) => !me.hospitalIds.includes(h))) throw new AppError(403, 'user.hospital_not_yours');
  if (ctx.id !== undefined && ctx.id === me.id && hospitals && !sameSet(hospitals, me.hospitalIds)) throw new AppError(403, 'user.hospital_not_yours');
  if (!Array.isArray(data.role_ids)) return;
  const roles = [...new Set(data.role_ids.map(Number))];
  const held = ctx.id === undefined ? [] : (await db.selectFrom('user_roles').select('role_id').where('user_id', '=', ctx.id).execute()).map((r) => r.role_id);
  if (ctx.id === me.id && !sameSet(roles, held)) throw new AppError(403, 'user.own_roles');
  if (!roles.length) return;
  const given = await db.selectFrom('roles').select(['id', 'name', 'en_name', 'identification', 'extra']).where('id', 'in', roles).execute();
  if (given.some(isAdminRole)) throw new AppError(403, 'user.admin_role_not_yours');
  // Roles the user already holds stay as an administrator gave them; only what is added now must be within reach.
  for (const role of given.filter((r) => !held.includes(r.id))) {
    const beyond = beyondSubCentre(parseRoleExtra(role.extra));
    if (beyond.length) throw new AppError(403, 'user.role_not_grantable', { role: role.name, permissions: beyond.join(', ') });
  }
}

/**
 * Subspecialty directories given to a user (spec §6) must exist, belong to one of the user's hospitals, and, when
 * the manager is not an administrator (a sub-centre's), to one of the manager's own hospitals.
 */
async function checkDirectories(data: Record<string, unknown>, ctx: WriteContext, db: Kysely<Database>): Promise<void> {
  if (!Array.isArray(data.subspecialty_ids) || !data.subspecialty_ids.length) return;
  const wanted = [...new Set(data.subspecialty_ids.map(Number))];
  const found = await db.selectFrom('subspecialties').select(['id', 'hospital_id']).where('id', 'in', wanted).execute();
  const unknown = wanted.filter((id) => !found.some((f) => f.id === id));
  if (unknown.length) throw new AppError(422, 'user.subspecialty_unknown', { ids: unknown.join(', ') });
  const me = ctx.user;
  if (!isAdmin({ identification: me.identification, roleNames: me.roleNames })) {
    const outside = directoriesOutside(wanted, found.filter((f) => me.hospitalIds.includes(f.hospital_id)).map((f) => f.id));
    if (outside.length) throw new AppError(403, 'user.subspecialty_not_yours', { ids: outside.join(', ') });
  }
  const hospitals = Array.isArray(data.hospital_ids) ? data.hospital_ids.map(Number)
    : ctx.id === undefined ? [] : (await db.selectFrom('user_hospitals').select('hospital_id').where('user_id', '=', ctx.id).execute()).map((h) => h.hospital_id);
  const elsewhere = found.filter((f) => !hospitals.includes(f.hospital_id)).map((f) => f.id);
  if (elsewhere.length) throw new AppError(422, 'user.subspecialty_other_hospital', { ids: elsewhere.join(', ') });
}

const sameSet = (a: number[], b: number[]) => a.length === b.length && a.every((x) => b.includes(x));

/** Users: the password is hashed, never stored; roles, hospitals and subspecialty directories live in join tables. */
export const usersHooks: ResourceHooks = {
  consumes: ['password', 'password_confirmation', 'role_ids', 'hospital_ids', 'roles', 'hospitals', 'subspecialty_ids', 'subspecialties'],

  async afterRead(db, rows) {
    if (!rows.length) return rows;
    const ids = rows.map((r) => r.id);
    const [roles, hospitals, directories] = await Promise.all([
      db.selectFrom('user_roles').innerJoin('roles', 'roles.id', 'user_roles.role_id')
        .select(['user_roles.user_id', 'roles.id', 'roles.name', 'roles.en_name', 'roles.identification']).where('user_roles.user_id', 'in', ids).orderBy('roles.id').execute(),
      db.selectFrom('user_hospitals').innerJoin('hospitals', 'hospitals.id', 'user_hospitals.hospital_id')
        .select(['user_hospitals.user_id', 'hospitals.id', 'hospitals.name', 'hospitals.en_name']).where('user_hospitals.user_id', 'in', ids).orderBy('hospitals.id').execute(),
      db.selectFrom('user_subspecialties').innerJoin('subspecialties', 'subspecialties.id', 'user_subspecialties.subspecialty_id')
        .select(['user_subspecialties.user_id', 'subspecialties.id', 'subspecialties.name', 'subspecialties.en_name'])
        .where('user_subspecialties.user_id', 'in', ids).orderBy('subspecialties.rank').orderBy('subspecialties.id').execute(),
    ]);
    return rows.map((r) => {
      const mine = roles.filter((x) => x.user_id === r.id).map(({ id, name, en_name, identification }) => ({ id, name, en_name, identification }));
      const theirs = hospitals.filter((x) => x.user_id === r.id).map(({ id, name, en_name }) => ({ id, name, en_name }));
      const dirs = directories.filter((x) => x.user_id === r.id).map(({ id, name, en_name }) => ({ id, name, en_name }));
      return {
        ...r, roles: mine, role_ids: mine.map((x) => x.id), hospitals: theirs, hospital_ids: theirs.map((x) => x.id),
        subspecialties: dirs, subspecialty_ids: dirs.map((x) => x.id),
      };
    });
  },

  async beforeWrite(data, ctx, db) {
    await checkManagerReach(data, ctx, db);
    await checkDirectories(data, ctx, db);
    return typeof data.password === 'string' && data.password ? { password_hash: await hashPassword(data.password), failed_attempts: 0, login_locked_until: null } : {};
  },

  async afterWrite(trx, id, data, ctx) {
    // An administrator's reset shuts out whoever held the old password; resetting one's own keeps this session.
    if (!ctx.creating && typeof data.password === 'string' && data.password) {
      await endOtherSessions(trx, id, id === ctx.user.id ? ctx.user.tokenHash : undefined);
    }
    if (Array.isArray(data.role_ids)) {
      await trx.deleteFrom('user_roles').where('user_id', '=', id).execute();
      const ids = [...new Set(data.role_ids.map(Number))];
      if (ids.length) await trx.insertInto('user_roles').values(ids.map((role_id) => ({ user_id: id, role_id }))).execute();
    }
    if (Array.isArray(data.hospital_ids)) {
      await trx.deleteFrom('user_hospitals').where('user_id', '=', id).execute();
      const ids = [...new Set(data.hospital_ids.map(Number))];
      if (ids.length) await trx.insertInto('user_hospitals').values(ids.map((hospital_id) => ({ user_id: id, hospital_id }))).execute();
    }
    if (Array.isArray(data.subspecialty_ids)) {
      await trx.deleteFrom('user_subspecialties').where('user_id', '=', id).execute();
      const ids = [...new Set(data.subspecialty_ids.map(Number))];
      if (ids.length) await trx.insertInto('user_subspecialties').values(ids.map((subspecialty_id) => ({ user_id: id, subspecialty_id }))).execute();
    }
  },

  async beforeDelete(_db, ids, ctx) {
    if (ids.includes(ctx.user.id)) throw new AppError(422, 'resource.cannot_delete_self');
  },
};
