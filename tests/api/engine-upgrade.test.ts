import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/connect.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { seedDemoData } from '../../server/db/seed/demo.js';
import type { SeedMenu } from '../../server/db/seed/menu-upgrade.js';
import { SEEDED_MENUS_KEY, seedStructure, shippedStructure, type StructureSource } from '../../server/db/seed/structure.js';
import { call, databases, emptyDatabase, testApp, tokenFor } from './harness.js';

const MENUS = '/api/system_management/menus';

/** A release's menu entry (a copy of the shape of schemas/menus.json). */
const entry = (alias: string, children: SeedMenu[] = [], route = alias): SeedMenu => ({
  uri: `/manage/probe/${route.toLowerCase()}`, alias, route_name: route, name: `${route}-zh`, en_name: route,
  is_show: '1', icon: 'list', external_link: 0, children,
});

/** `release` with `extra` placed after the `after` alias of the group `group`, granted to `roles`. */
function withEntry(release: StructureSource, group: string, after: string, extra: SeedMenu, roles: string[]): StructureSource {
  const menus: SeedMenu[] = structuredClone(release.menus);
  const siblings = menus.find((g) => g.route_name === group)!.children;
  siblings.splice(siblings.findIndex((m) => m.alias === after) + 1, 0, extra);
  return {
    ...release, menus,
    roles: release.roles.map((r) => (roles.includes(r.identification) && r.menus !== 'all' ? { ...r, menus: [...r.menus, extra.alias] } : r)),
  };
}

/** Upgrades: the menus a new release ships reach an existing installation; the administrator's menu stays theirs. */
describe.each(databases)('menu upgrade [%s]', (kind) => {
  let db: Db;
  let app: FastifyInstance | undefined;
  let schema: string | undefined;
  let drop = async () => {};
  afterEach(async () => {
    await app?.close();
    await drop();
  });

  const open = async () => {
    const fresh = await emptyDatabase(kind);
    ({ schema, drop } = fresh);
    return fresh.db;
  };

  const row = (alias: string) => db.selectFrom('menus').selectAll().where('alias', '=', alias).executeTakeFirst();
  const group = async (route: string) => (await db.selectFrom('menus').select('id').where('route_name', '=', route).executeTakeFirstOrThrow()).id;
  /** The aliases under a parent in menu order, as the side menu shows them. */
  const childrenOf = async (parentId: number) => (await db.selectFrom('menus').select('alias').where('parent_id', '=', parentId)
    .orderBy('rank').orderBy('id').execute()).map((m) => m.alias);
  const menuOf = async (token: string) => (await call(app!, 'GET', '/api/system_management/users/menu', { token })).json().data as { route_name: string; alias: string; children: { alias: string }[] }[];

  it('adds a new release\'s alias under its parent and to the roles it is for, keeping what the administrator moved, hid, renamed and deleted', async () => {
    db = await open();
    await migrateToLatest(db, schema);
    // An installation of an older release: its menu tree, seeded before the delivered-menus record existed.
    const old = shippedStructure();
    await seedStructure(db, old);
    await db.deleteFrom('settings').where('key', '=', SEEDED_MENUS_KEY).execute();
    await seedDemoData(db);
    app = await testApp(db);
    await app.ready();
    const admin = await tokenFor(app, 'admin');

    // The administrator moves the login log into System (last), hides Permissions, renames Roles, deletes Error log.
    const system = await group('SystemGroup');
    const patch = async (alias: string, payload: object) =>
      expect((await call(app!, 'PATCH', `${MENUS}/update/${(await row(alias))!.id}`, { token: admin, payload })).statusCode).toBe(200);
    await patch('LogLogin', { parent_id: system, rank: 99 });
    await patch('SystemPermission', { is_show: '0' });
    await patch('SystemRole', { name: '角色与权限', en_name: 'Roles and rights' });
    const errorLog = (await row('LogError'))!.id;
    expect((await call(app, 'DELETE', `${MENUS}/destroy`, { token: admin, payload: { ids: [errorLog] } })).statusCode).toBe(200);
    const before = await db.selectFrom('menus').selectAll().orderBy('id').execute();

    // The next release adds ProbeNew to System after Menus, for the registrar, and a new section with one entry.
    const next = withEntry(old, 'SystemGroup', 'SystemMenu', entry('ProbeNew'), ['registrar']);
    next.menus.push(entry('', [entry('ProbeChild')], 'ProbeGroup'));
    await seedStructure(db, next);

    expect(await childrenOf(system)).toEqual(['SystemMenu', 'ProbeNew', 'SystemPermission', 'SystemRole', 'SystemUser', 'SchemaEditor', 'SystemAccount', 'LogLogin']);
    const probeGroup = await group('ProbeGroup');
    expect(await childrenOf(probeGroup)).toEqual(['ProbeChild']);
    // Every row the administrator had is as they left it, apart from a rank moved down one to make room.
    const after = await db.selectFrom('menus').selectAll().where('id', 'in', before.map((m) => m.id)).orderBy('id').execute();
    expect(after.map(({ rank: _r, ...m }) => m)).toEqual(before.map(({ rank: _r, ...m }) => m));
    expect(await row('LogLogin')).toMatchObject({ parent_id: system });
    expect(await row('SystemPermission')).toMatchObject({ is_show: '0' });
    expect(await row('SystemRole')).toMatchObject({ name: '角色与权限', en_name: 'Roles and rights' });
    // An installation from before the record gets every missing entry once: the deleted error log came back.
    expect(await row('LogError')).toBeDefined();

    // The registrar sees the new entry; the sampler (not granted it) does not.
    const registrarSystem = (await menuOf(await tokenFor(app, 'registrar'))).find((g) => g.route_name === 'SystemGroup')!;
    expect(registrarSystem.children.map((c) => c.alias)).toEqual(['ProbeNew', 'SystemAccount']);
    const samplerSystem = (await menuOf(await tokenFor(app, 'sampler'))).find((g) => g.route_name === 'SystemGroup')!;
    expect(samplerSystem.children.map((c) => c.alias)).toEqual(['SystemAccount']);
    expect((await menuOf(admin)).find((g) => g.route_name === 'ProbeGroup')!.children.map((c) => c.alias)).toEqual(['ProbeChild']);

    // From now on a deletion is remembered: the administrator deletes the error log and ProbeNew again, the
    // release after adds ProbeLater, and only that one arrives.
    const ids = [(await row('LogError'))!.id, (await row('ProbeNew'))!.id];
    expect((await call(app, 'DELETE', `${MENUS}/destroy`, { token: admin, payload: { ids } })).statusCode).toBe(200);
    const count = async () => Number((await db.selectFrom('menus').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const kept = await count();
    await seedStructure(db, withEntry(next, 'SystemGroup', 'SystemMenu', entry('ProbeLater'), []));
    expect(await row('LogError')).toBeUndefined();
    expect(await row('ProbeNew')).toBeUndefined();
    expect(await childrenOf(system)).toEqual(['SystemMenu', 'ProbeLater', 'SystemPermission', 'SystemRole', 'SystemUser', 'SchemaEditor', 'SystemAccount', 'LogLogin']);
    expect(await count()).toBe(kept + 1);
    // A start with nothing new changes nothing.
    await seedStructure(db, withEntry(next, 'SystemGroup', 'SystemMenu', entry('ProbeLater'), []));
    expect(await count()).toBe(kept + 1);
  });

  it('a fresh installation gets the shipped tree in its order, each role its menus', async () => {
    db = await open();
    await migrateToLatest(db, schema);
    await seedStructure(db);
    const shipped = shippedStructure();
    const roots = (await db.selectFrom('menus').select(['alias', 'route_name']).where('parent_id', 'is', null).orderBy('rank').orderBy('id').execute());
    expect(roots.map((m) => m.alias || m.route_name)).toEqual(shipped.menus.map((m) => m.alias || m.route_name));
    expect(await childrenOf(await group('SystemGroup'))).toEqual(shipped.menus.find((g) => g.route_name === 'SystemGroup')!.children.map((c) => c.alias));
    const registrar = await db.selectFrom('role_menus').innerJoin('roles', 'roles.id', 'role_menus.role_id').innerJoin('menus', 'menus.id', 'role_menus.menu_id')
      .select('menus.alias').where('roles.identification', '=', 'registrar').execute();
    expect(registrar.map((m) => m.alias).sort()).toEqual([...shipped.roles.find((r) => r.identification === 'registrar')!.menus].sort());
  });
});
