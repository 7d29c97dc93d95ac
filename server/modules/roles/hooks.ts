import { AppError } from '../../http/errors.js';
import { ADMIN_IDENTIFICATION } from '../../http/access.js';
import type { ResourceHooks } from '../../resources/hooks/types.js';

/** Roles: permissions are the role's extra JSON (spec §3, §6); menus attach through role_menus. */
export const rolesHooks: ResourceHooks = {
  consumes: ['menu_ids', 'user_count'],

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
