import fs from 'node:fs';
import type { Db } from '../connect.js';
import { getSetting, putSetting } from '../../modules/settings/queries.js';
import { DEFAULT_PHASE_HOURS } from '../../modules/cases/phase-limits.js';
import { menuKey, menuKeys, menusToAdd, type SeedMenu } from './menu-upgrade.js';
import { appPath } from '../../paths.js';

/**
 * The product's own structure, run at every start, demo or not: settings, permission codes, menus and roles.
 * A fresh database gets all of it; an upgraded one gets what the new release adds, and nothing an
 * administrator changed is touched.
 */

export interface SeedRole {
  identification: string; name: string; en_name?: string; description: string; permissions: string[]; menus: string[] | 'all';
  /** The demo account of this role (DSMS_DEMO); none for roles a hospital sets up itself (sub-centres). */
  user?: string;
}

/** What a release ships: schemas/menus.json, roles.json, permissions.json. Tests pass a newer release's. */
export interface StructureSource {
  menus: SeedMenu[];
  roles: SeedRole[];
  permissions: { code: string }[];
}

const read = (rel: string) => JSON.parse(fs.readFileSync(appPath(rel), 'utf8'));

export const shippedStructure = (): StructureSource => ({
  menus: read('schemas/menus.json'), roles: read('server/db/seed/roles.json'), permissions: read('server/db/seed/permissions.json'),
});

/**
 * The menu keys every seed so far shipped. Not in the settings API's allow-list (settings/declared.ts), so it is
 * neither read nor written through the API.
 */
export const SEEDED_MENUS_KEY = 'seeded_menus';

/** Settings every installation needs, demo or not. */
export async function seedSettings(db: Db): Promise<void> {
  const defaults: [string, unknown, boolean][] = [
    ['lang', 'zh-CN', true],
    ['hospital_logo', null, true],
    ['dingding_login_app_id', null, true],
    ['lock_screen_minutes', 0, true],
    ['system_config', { network_protocol: 'http', hisip: '', hisport: 8001, upload_protocol: 'http', upload_host: '', upload_port: 8001, ftpname: '', ftpuser: '', ftppassword: '', catalog: '' }, false],
    ['qc_focus', { blur_share_limit: 0.1 }, false],
    // Security keys: no role until an administrator chooses (System › Security keys).
    ['webauthn_login', { role_ids: [] }, true],
    // Spec §7 statistic_pass_rate_config: the scan pass rate (%) ScanAccessStatistics aims at (SettingPassRate).
    ['statistic_pass_rate', { qc13: 95 }, false],
    // Issue 10: hours a case may stay in each phase before MissCaseSearch counts it overdue (SettingCaseTimeout).
    ['case_phase_hours', { ...DEFAULT_PHASE_HOURS }, false],
  ];
  for (const [key, value, isPublic] of defaults) {
    const exists = await db.selectFrom('settings').select('key').where('key', '=', key).executeTakeFirst();
    if (!exists) await putSetting(db, key, value, isPublic);
  }
}

/** Permission codes ship with the code that checks them, so every start adds the ones a new release brings. */
export async function seedPermissions(db: Db, source = shippedStructure()): Promise<void> {
  const known = new Set((await db.selectFrom('permissions').select('code').execute()).map((p) => p.code));
  const missing = source.permissions.filter((p) => !known.has(p.code));
  if (!missing.length) return;
  await db.insertInto('permissions').values(missing as never).execute();
  // A release's new codes go to the roles roles.json grants them to (the administrator holds every one),
  // so an upgraded installation's doctors can use a new feature as a fresh one's can.
  const seeded = new Map(source.roles.map((r) => [r.identification, r.permissions]));
  for (const role of await db.selectFrom('roles').select(['id', 'identification', 'extra']).execute()) {
    const grants = role.identification === 'admin' ? missing.map((p) => p.code) : missing.map((p) => p.code).filter((c) => seeded.get(role.identification)?.includes(c));
    if (!grants.length) continue;
    const held = new Set<string>(JSON.parse(role.extra ?? '[]'));
    grants.forEach((c) => held.add(c));
    await db.updateTable('roles').set({ extra: JSON.stringify([...held]) }).where('id', '=', role.id).execute();
  }
}

/**
 * Menus reach an installation like permission codes do: an entry the shipped tree has and the installation never
 * got is added under its parent, after its nearest seed sibling that is still there, and given to the roles
 * roles.json grants it to. Rows already there are left as they are (moved, hidden, renamed); an entry an
 * administrator deleted is not brought back (the delivered keys are remembered, see SEEDED_MENUS_KEY; an
 * installation from before that record gets every missing entry once).
 */
export async function seedMenus(db: Db, source = shippedStructure()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('menus').select(['id', 'alias', 'route_name']).orderBy('id').execute();
    const ids = new Map<string, number>();
    for (const r of rows) if (!ids.has(menuKey(r))) ids.set(menuKey(r), r.id);
    const stored = await getSetting(trx, SEEDED_MENUS_KEY);
    const delivered = stored ? new Set<string>(JSON.parse(stored.value)) : null;
    const roles = await trx.selectFrom('roles').select(['id', 'identification']).execute();

    for (const item of menusToAdd(source.menus, new Set(ids.keys()), delivered)) {
      const parentId = item.parentKey === null ? null : ids.get(item.parentKey);
      // The administrator deleted the section it belongs to: the section's new entries stay away with it.
      if (parentId === undefined) continue;
      const id = await insertMenu(trx, item.node, parentId, item.before.map((k) => ids.get(k)).filter((x) => x !== undefined), item.before.length === 0);
      ids.set(item.key, id);
      const granted = roles.filter((r) => {
        const menus = source.roles.find((s) => s.identification === r.identification)?.menus;
        return menus === 'all' || (item.node.alias !== '' && !!menus?.includes(item.node.alias));
      });
      if (granted.length) await trx.insertInto('role_menus').values(granted.map((r) => ({ role_id: r.id, menu_id: id }))).execute();
    }

    const keys = new Set([...(delivered ?? []), ...menuKeys(source.menus)]);
    if (!delivered || keys.size !== delivered.size) await putSetting(trx, SEEDED_MENUS_KEY, [...keys], false);
  });
}

/**
 * Inserts one entry among its siblings: after the first of `after` (seed siblings, nearest first) still under
 * this parent, first when it is first in the seed, else last. Later siblings move down one rank only when the
 * new rank is taken, so their order (the administrator's) is kept.
 */
async function insertMenu(db: Db, node: SeedMenu, parentId: number | null, after: number[], first: boolean): Promise<number> {
  const siblings = await db.selectFrom('menus').select(['id', 'rank'])
    .where((eb) => (parentId === null ? eb('parent_id', 'is', null) : eb('parent_id', '=', parentId))).execute();
  const prev = after.map((id) => siblings.find((s) => s.id === id)).find((s) => s !== undefined);
  const ranks = siblings.map((s) => s.rank);
  const rank = prev ? prev.rank + 1 : first ? Math.min(0, ...ranks) : Math.max(-1, ...ranks) + 1;
  if (ranks.includes(rank)) {
    await db.updateTable('menus').set((eb) => ({ rank: eb('rank', '+', 1) })).where('id', 'in', siblings.filter((s) => s.rank >= rank).map((s) => s.id)).execute();
  }
  const { id } = await db.insertInto('menus').values({
    parent_id: parentId, uri: node.uri, alias: node.alias, route_name: node.route_name, name: node.name, en_name: node.en_name,
    is_show: node.is_show, icon: node.icon, external_link: node.external_link, active_menu: null, rank,
  }).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** The shipped roles, into an empty roles table, with their menus. */
export async function seedRoles(db: Db, source = shippedStructure()): Promise<void> {
  if (await db.selectFrom('roles').select('id').limit(1).executeTakeFirst()) return;
  const now = new Date().toISOString();
  const menus = await db.selectFrom('menus').select(['id', 'alias']).execute();
  for (const role of source.roles) {
    const { id } = await db.insertInto('roles').values({
      name: role.name, en_name: role.en_name ?? null, identification: role.identification, description: role.description,
      extra: JSON.stringify(role.permissions), created_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    const granted = role.menus === 'all' ? menus : menus.filter((m) => (role.menus as string[]).includes(m.alias));
    if (granted.length) await db.insertInto('role_menus').values(granted.map((m) => ({ role_id: id, menu_id: m.id }))).execute();
  }
}

/** Everything above, in the order they depend on each other. */
export async function seedStructure(db: Db, source = shippedStructure()): Promise<void> {
  await seedSettings(db);
  await seedPermissions(db, source);
  await seedMenus(db, source);
  await seedRoles(db, source);
}
