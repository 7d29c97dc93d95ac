import type { Kysely } from 'kysely';
import { beyondSubCentre, isAdminRole } from '../../../src/core/subCentreGrants.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { ADMIN_IDENTIFICATION, isAdmin } from '../../http/access.js';
import type { ResourceHooks, WriteContext } from '../../resources/hooks/types.js';
import { parseRoleExtra } from '../users/queries.js';

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** The permissions a write sends: the JSON array as sent, or its text. */
const sentPermissions = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : parseRoleExtra(typeof v === 'string' ? v : '[]'));

/**
 * A role written by someone who is not an administrator must not come out an administrator role: not coded or named
 * like one (src/core/admin.ts, either language), and not given a permission a sub-centre may not hand out
 * (src/core/subCentreGrants.ts). Else holding `system_role` would be a step to administrator: rename a role one holds
 * to 管理员, or give it every permission. What a role already held stays; taking permissions away is always allowed.
 */
async function checkRoleReach(data: Record<string, unknown>, ctx: WriteContext, db: Kysely<Database>): Promise<void> {
  if (isAdmin(ctx.user)) return;
  const current = ctx.id === undefined ? undefined
    : await db.selectFrom('roles').select(['identification', 'name', 'en_name', 'extra']).where('id', '=', ctx.id).executeTakeFirst();
  const next = {
    identification: text(data.identification) ?? current?.identification ?? '',
    name: text(data.name) ?? current?.name ?? '',
    en_name: data.en_name === undefined ? current?.en_name : text(data.en_name),
  };
  if (isAdminRole(next)) throw new AppError(403, 'role.admin_not_yours');
  if (data.extra === undefined) return;
  const had = current ? parseRoleExtra(current.extra) : [];
  const added = beyondSubCentre(sentPermissions(data.extra)).filter((p) => !had.includes(p));
  if (added.length) throw new AppError(403, 'role.permission_not_yours', { permissions: added.join(', ') });
}

/** Roles: permissions are the role's extra JSON (spec §3, §6); menus attach through role_menus. */
export const rolesHooks: ResourceHooks = {
  consumes: ['menu_ids', 'user_count'],

  async beforeWrite(data, ctx, db) {
    await checkRoleReach(data, ctx, db);
    return {};
  },

  async afterRead(db, rows) {
    if (!rows.length) return rows;
    const ids = rows.map((r) => r.id);
    const [menus, users] = await Promise.all([
      db.selectFrom('role_menus').select(['role_id', 'menu_id']).where('role_id', 'in', ids).execute(),
      db.selectFrom('user_roles').select(['role_id', (eb) => eb.fn.countAll().as('n')]).where('role_id', 'in', ids).groupBy('role_id').execute(),
    ]);
    return rows.map((r) => ({
      ...r,
      menu_ids: menus.filter((m) => m.role_id === r.id).map((m) => m.menu_id),
      user_count: Number(users.find((u) => u.role_id === r.id)?.n ?? 0),
    }));
  },

  async afterWrite(trx, id, data) {
    if (!Array.isArray(data.menu_ids)) return;
    await trx.deleteFrom('role_menus').where('role_id', '=', id).execute();
    const ids = [...new Set(data.menu_ids.map(Number))];
    if (ids.length) await trx.insertInto('role_menus').values(ids.map((menu_id) => ({ role_id: id, menu_id }))).execute();
  },

  async beforeDelete(trx, ids) {
    const blocked = await trx.selectFrom('roles').leftJoin('user_roles', 'user_roles.role_id', 'roles.id')
      .select(['roles.identification', 'user_roles.user_id']).where('roles.id', 'in', ids).execute();
    // The administrator role, or a role someone still holds, would leave accounts without access.
    if (blocked.some((r) => r.identification === ADMIN_IDENTIFICATION || r.user_id !== null)) throw new AppError(409, 'resource.in_use');
  },
};
