import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

type Node = { route_name: string; name: string; en_name: string; is_show: string | number; children: Node[] };

/**
 * Issue 31 item 6: a hospital renames, hides and reorders its menu entries through the layered store (document
 * `menus`, kind `menu`), versioned and rolled back like a page override; another hospital's menu is untouched; bad
 * changes are refused with their reasons and change nothing; writes are logged; only schema editors change it.
 */
describe.each(databases)('per-hospital menu changes [%s]', (kind) => {
  let h: Harness;
  let main: string;
  let branch: string;
  let registrar: string;
  const MENU = '/api/system_management/users/menu';

  beforeAll(async () => {
    h = await startApp(kind);
    [main, branch, registrar] = await Promise.all([tokenFor(h.app, 'admin'), tokenFor(h.app, 'admin'), tokenFor(h.app, 'registrar')]);
    const b = (await h.db.selectFrom('hospitals').select('id').where('code', '=', 'H002').executeTakeFirstOrThrow()).id;
    expect((await call(h.app, 'POST', '/api/auth/switch_hospital', { token: branch, payload: { hospital_id: b } })).statusCode).toBe(200);
  });
  afterAll(async () => { await h.close(); });

  const menuOf = async (token: string) => (await call(h.app, 'GET', MENU, { token })).json().data as Node[];
  const group = (tree: Node[], name: string) => tree.find((n) => n.route_name === name)!;
  const save = (override: object, token = main, lang?: 'en-US') => call(h.app, 'PUT', '/api/menu-config/menus', { token, lang, payload: { override, note: 'menu' } });

  it('renames, hides and reorders for the hospital that saved it, and for nobody else', async () => {
    const before = await menuOf(branch);
    const base = await call(h.app, 'GET', '/api/menu-config/menus', { token: main });
    expect(base.statusCode, base.body).toBe(200);
    expect(base.json().data).toMatchObject({ version: 0, override: { entries: {} } });
    expect(group(base.json().data.tree, 'CaseGroup').children.map((c: Node) => c.route_name)).toContain('CaseCollection');

    const last = await h.db.selectFrom('operation_logs').select('id').orderBy('id', 'desc').executeTakeFirst();
    const res = await save({ entries: {
      CaseList: { name: '病例总览', en_name: 'All cases', rank: 1 }, CaseRegistration: { rank: 0 }, CaseCollection: { hidden: true }, SettingGroup: { rank: 0 },
    } });
    expect(res.statusCode, res.body).toBe(200);
    const logged = await h.db.selectFrom('operation_logs').select('route').where('id', '>', last?.id ?? 0).execute();
    expect(logged.some((r) => String(r.route).startsWith('/api/menu-config/'))).toBe(true);

    const mine = await menuOf(main);
    expect(mine[0].route_name).toBe('SettingGroup');
    const cases = group(mine, 'CaseGroup').children;
    expect(cases.slice(0, 2).map((c) => [c.route_name, c.en_name])).toEqual([['CaseRegistration', 'Case registration'], ['CaseList', 'All cases']]);
    expect(cases.find((c) => c.route_name === 'CaseList')!.name).toBe('病例总览');
    expect(String(cases.find((c) => c.route_name === 'CaseCollection')!.is_show)).toBe('0');
    // A user of the hospital sees the same names on the entries their roles give them.
    const theirs = group(await menuOf(registrar), 'CaseGroup').children.find((c) => c.route_name === 'CaseList');
    expect(theirs?.en_name).toBe('All cases');
    // The other hospital's menu is as it was.
    expect(await menuOf(branch)).toEqual(before);
  });

  it('refuses bad changes with their reasons and keeps the last good ones; versions roll back', async () => {
    const current = await menuOf(main);
    const bad = await save({ entries: { NoSuchMenu: { name: 'x' }, CaseList: { name: '', rank: -1, colour: 'red' } } }, main, 'en-US');
    expect(bad.statusCode, bad.body).toBe(422);
    expect(bad.json().message).toMatch(/^The menu changes are not valid: /);
    expect(Object.keys(bad.json().errors)).toEqual(expect.arrayContaining(['/entries/NoSuchMenu', '/entries/CaseList/name', '/entries/CaseList/rank', '/entries/CaseList/colour']));
    expect(await menuOf(main)).toEqual(current);

    const versions = (await call(h.app, 'GET', '/api/menu-config/menus/versions', { token: main })).json().data;
    expect(versions).toHaveLength(1);
    expect((await call(h.app, 'POST', '/api/menu-config/menus/rollback', { token: main, payload: { version: 0 } })).statusCode).toBe(200);
    expect(group(await menuOf(main), 'CaseGroup').children.find((c) => c.route_name === 'CaseList')!.en_name).toBe('Case list');
    expect((await call(h.app, 'POST', '/api/menu-config/menus/rollback', { token: main, payload: { version: 1 } })).statusCode).toBe(200);
  });

  it('travels in the configuration file to another hospital', async () => {
    const file = (await call(h.app, 'GET', '/api/schema-config/export', { token: main })).json().data;
    expect(file.documents.menus.menus.entries.CaseList.en_name).toBe('All cases');
    const res = await call(h.app, 'POST', '/api/schema-config/import', { token: branch, payload: file });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.changed.menus).toEqual(['menus']);
    expect(group(await menuOf(branch), 'CaseGroup').children.find((c) => c.route_name === 'CaseList')!.en_name).toBe('All cases');
  });

  it('is for schema editors only', async () => {
    expect((await call(h.app, 'GET', '/api/menu-config/menus', { token: registrar })).statusCode).toBe(403);
    expect((await save({ entries: {} }, registrar)).statusCode).toBe(403);
  });
});
