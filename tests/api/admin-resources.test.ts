import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

describe.each(databases)('administration resources [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  let registrar: string;
  beforeAll(async () => {
    h = await startApp(kind);
    [admin, registrar] = await Promise.all([tokenFor(h.app, 'admin'), tokenFor(h.app, 'registrar')]);
  });
  afterAll(async () => { await h.close(); });

  it('roles keep their permissions as the extra JSON array and their menus in role_menus', async () => {
    const menu = await h.db.selectFrom('menus').select('id').where('alias', '=', 'LogLogin').executeTakeFirstOrThrow();
    const res = await call(h.app, 'POST', '/api/system_management/roles/store', { token: admin, payload: {
      name: '审计员', identification: 'auditor_role', extra: ['log_view', 'export_data_role'], menu_ids: [menu.id] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ extra: ['log_view', 'export_data_role'], menu_ids: [menu.id], user_count: 0 });
    const stored = await h.db.selectFrom('roles').select('extra').where('identification', '=', 'auditor_role').executeTakeFirstOrThrow();
    expect(JSON.parse(stored.extra)).toEqual(['log_view', 'export_data_role']);
  });

  it('refuses to delete the administrator role or a role someone holds', async () => {
    const ids = (await h.db.selectFrom('roles').select('id').where('identification', 'in', ['admin', 'registrar']).execute()).map((r) => r.id);
    for (const id of ids) expect((await call(h.app, 'DELETE', '/api/system_management/roles/destroy', { token: admin, payload: { ids: [id] } })).statusCode).toBe(409);
  });

  it('moves, hides and ranks menus, refuses a cycle, and deletes a subtree', async () => {
    const M = '/api/system_management/menus';
    const group = (await call(h.app, 'POST', `${M}/store`, { token: admin, payload: { name: '测试', en_name: 'Test', uri: '/manage/t', route_name: 'T', is_show: '1' } })).json().data;
    const child = (await call(h.app, 'POST', `${M}/store`, { token: admin, payload: { parent_id: group.id, name: '子', en_name: 'Child', uri: '/manage/t/c', route_name: 'TC', alias: 'SlideSearch', is_show: '1' } })).json().data;
    const cycle = await call(h.app, 'PATCH', `${M}/update/${group.id}`, { token: admin, lang: 'en-US', payload: { parent_id: child.id } });
    expect(cycle.statusCode).toBe(422);
    expect(cycle.json().message).toBe('An entry cannot be moved under itself or one of its children');
    expect((await call(h.app, 'PATCH', `${M}/update/${child.id}`, { token: admin, payload: { is_show: '0', rank: 7 } })).json().data).toMatchObject({ is_show: '0', rank: 7 });
    expect((await call(h.app, 'DELETE', `${M}/destroy`, { token: admin, payload: { ids: [group.id] } })).json().data).toEqual({ deleted: 2 });
  });

  it('labels nest under a parent label', async () => {
    const L = '/api/config/labels';
    const parent = (await call(h.app, 'POST', `${L}/store`, { token: admin, payload: { name: '肿瘤', color: '#AA3344' } })).json().data;
    const child = await call(h.app, 'POST', `${L}/store`, { token: admin, payload: { name: '乳腺癌', parent_id: parent.id } });
    expect(child.json().data).toMatchObject({ name: '乳腺癌', parent_id: parent.id });
    const bad = await call(h.app, 'POST', `${L}/store`, { token: admin, payload: { name: 'x', color: 'red' } });
    expect(bad.statusCode).toBe(422);
  });

  it('logs are read-only: lists work, write routes do not exist', async () => {
    expect((await call(h.app, 'GET', '/api/logs/login/lists', { token: admin })).json().data.total).toBeGreaterThan(0);
    expect((await call(h.app, 'POST', '/api/logs/login/store', { token: admin, payload: {} })).statusCode).toBe(404);
    expect((await call(h.app, 'GET', '/api/logs/login/lists', { token: registrar })).statusCode).toBe(403);
  });

  it('browser error reports land in LogError', async () => {
    const res = await call(h.app, 'POST', '/api/logs/errors', { token: registrar, payload: { message: 'TypeError: x is undefined', page: '/manage/case/list' } });
    expect(res.json().data).toEqual({ stored: true });
    const list = await call(h.app, 'GET', '/api/logs/error/lists', { token: admin });
    expect(list.json().data.data[0]).toMatchObject({ username: 'registrar', page: '/manage/case/list', message: 'TypeError: x is undefined' });
  });

  it('serves every page schema layered, and the resource list for options', async () => {
    for (const alias of ['SystemRole', 'SystemMenu', 'LogLogin', 'SettingOther', 'SystemAccount', 'InnerIframe']) {
      const res = await call(h.app, 'GET', `/api/schemas/${alias}`, { token: registrar });
      expect(res.statusCode, alias).toBe(200);
    }
    const resources = (await call(h.app, 'GET', '/api/resources', { token: registrar })).json().data;
    expect(resources.find((r: { name: string }) => r.name === 'permissions')).toMatchObject({ optionLabel: { 'zh-CN': 'description', 'en-US': 'en_description' }, optionValue: 'code' });
  });
});
