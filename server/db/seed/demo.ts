import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Db } from '../connect.js';
import { hashPassword } from '../../modules/auth/passwords.js';
import { putSetting } from '../../modules/settings/queries.js';
import { seedDemoCases } from './demo-cases.js';
import { seedDemoCollections } from './demo-collections.js';
import { seedDemoSlides } from './demo-slides.js';

const read = (rel: string) => JSON.parse(fs.readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8'));

interface SeedMenu {
  uri: string; alias: string; route_name: string; name: string; en_name: string;
  is_show: string; icon: string | null; external_link: number; children: SeedMenu[];
}
interface SeedRole {
  identification: string; name: string; description: string; permissions: string[]; menus: string[] | 'all'; user: string;
}

export const DEMO_PASSWORDS = { admin: 'dsms-admin', others: 'dsms-demo' } as const;

const realnames: Record<string, string> = {
  admin: '系统管理员', registrar: '王登记', sampler: '李取材', technician: '张技术', primary: '陈初诊', auditor: '刘复诊',
  signer: '赵签发', allocator: '孙分配', qc: '周质控', scanner: '吴扫描', clinician: '郑临床',
};

/** Settings every installation needs, demo or not. */
export async function seedSettings(db: Db): Promise<void> {
  const defaults: [string, unknown, boolean][] = [
    ['lang', 'zh-CN', true],
    ['hospital_logo', null, true],
    ['dingding_login_app_id', null, true],
    ['lock_screen_minutes', 0, true],
    ['system_config', { network_protocol: 'http', hisip: '', hisport: 8001, upload_protocol: 'http', upload_host: '', upload_port: 8001, ftpname: '', ftpuser: '', ftppassword: '', catalog: '' }, false],
  ];
  for (const [key, value, isPublic] of defaults) {
    const exists = await db.selectFrom('settings').select('key').where('key', '=', key).executeTakeFirst();
    if (!exists) await putSetting(db, key, value, isPublic);
  }
}

/** Permission codes ship with the code that checks them, so every start adds the ones a new release brings. */
export async function seedPermissions(db: Db): Promise<void> {
  const known = new Set((await db.selectFrom('permissions').select('code').execute()).map((p) => p.code));
  const missing = (read('./permissions.json') as { code: string }[]).filter((p) => !known.has(p.code));
  if (!missing.length) return;
  await db.insertInto('permissions').values(missing as never).execute();
  // A release's new codes go to the roles roles.json grants them to (the administrator holds every one),
  // so an upgraded installation's doctors can use a new feature as a fresh one's can.
  const seeded = new Map((read('./roles.json') as SeedRole[]).map((r) => [r.identification, r.permissions]));
  for (const role of await db.selectFrom('roles').select(['id', 'identification', 'extra']).execute()) {
    const grants = role.identification === 'admin' ? missing.map((p) => p.code) : missing.map((p) => p.code).filter((c) => seeded.get(role.identification)?.includes(c));
    if (!grants.length) continue;
    const held = new Set<string>(JSON.parse(role.extra ?? '[]'));
    grants.forEach((c) => held.add(c));
    await db.updateTable('roles').set({ extra: JSON.stringify([...held]) }).where('id', '=', role.id).execute();
  }
}

/** Menus and roles are the product's own structure, seeded into an empty database. */
export async function seedStructure(db: Db): Promise<void> {
  await seedPermissions(db);
  if (await db.selectFrom('menus').select('id').limit(1).executeTakeFirst()) return;
  const now = new Date().toISOString();
  const insertMenus = async (nodes: SeedMenu[], parentId: number | null) => {
    let rank = 0;
    for (const n of nodes) {
      const { id } = await db.insertInto('menus').values({
        parent_id: parentId, uri: n.uri, alias: n.alias, route_name: n.route_name, name: n.name, en_name: n.en_name,
        is_show: n.is_show, icon: n.icon, external_link: n.external_link, active_menu: null, rank: rank++,
      }).returning('id').executeTakeFirstOrThrow();
      await insertMenus(n.children, id);
    }
  };
  await insertMenus(read('../../../schemas/menus.json'), null);

  const menus = await db.selectFrom('menus').select(['id', 'alias']).execute();
  for (const role of read('./roles.json') as SeedRole[]) {
    const { id } = await db.insertInto('roles').values({
      name: role.name, identification: role.identification, description: role.description,
      extra: JSON.stringify(role.permissions), created_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    const granted = role.menus === 'all' ? menus : menus.filter((m) => (role.menus as string[]).includes(m.alias));
    if (granted.length) await db.insertInto('role_menus').values(granted.map((m) => ({ role_id: id, menu_id: m.id }))).execute();
  }
}

/** Two hospitals and one account per role, for trying the product and for the e2e tests. */
export async function seedDemo(db: Db): Promise<void> {
  if (await db.selectFrom('users').select('id').limit(1).executeTakeFirst()) return;
  const now = new Date().toISOString();
  const hospitals = await db.insertInto('hospitals').values([
    { code: 'H001', name: '示范医院总院', en_name: 'Demo General Hospital', logo: null, created_at: now },
    { code: 'H002', name: '示范医院分院', en_name: 'Demo Branch Hospital', logo: null, created_at: now },
  ]).returning('id').execute();

  const roles = await db.selectFrom('roles').select(['id', 'identification']).execute();
  const [adminHash, demoHash] = await Promise.all([hashPassword(DEMO_PASSWORDS.admin), hashPassword(DEMO_PASSWORDS.others)]);
  for (const role of read('./roles.json') as SeedRole[]) {
    const { id } = await db.insertInto('users').values({
      name: role.user, realname: realnames[role.user] ?? role.user, password_hash: role.user === 'admin' ? adminHash : demoHash,
      email: `${role.user}@demo.dsms`, phone: null, status: 1, locked: 0, expires_at: null, failed_attempts: 0,
      login_locked_until: null, extra: '{}', created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    const roleId = roles.find((r) => r.identification === role.identification)!.id;
    await db.insertInto('user_roles').values({ user_id: id, role_id: roleId }).execute();
    // The administrator and doctors work in both hospitals, so the switcher has something to switch.
    const inBoth = ['admin', 'primary', 'auditor', 'signer'].includes(role.user);
    await db.insertInto('user_hospitals').values(hospitals.slice(0, inBoth ? 2 : 1).map((h) => ({ user_id: id, hospital_id: h.id }))).execute();
  }
}

/** `dataDir`: where demo slide files go; without one (tests) no slides are seeded. */
export async function seed(db: Db, demo: boolean, dataDir?: string): Promise<void> {
  await seedSettings(db);
  await seedStructure(db);
  if (demo) await seedDemo(db);
  if (demo) await seedDemoCases(db);
  if (demo && dataDir) await seedDemoSlides(db, dataDir);
  if (demo) await seedDemoCollections(db);
}
