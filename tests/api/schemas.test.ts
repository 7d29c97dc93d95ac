import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

const S = '/api/schemas/SystemUser';

describe.each(databases)('schema store [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  let registrar: string;
  beforeAll(async () => {
    h = await startApp(kind);
    [admin, registrar] = await Promise.all([tokenFor(h.app, 'admin'), tokenFor(h.app, 'registrar')]);
  });
  afterAll(async () => { await h.close(); });

  const addField = { form: { schema: { properties: { badge_no: { type: 'string', maxLength: 20 } } }, uiSchema: { badge_no: { 'ui:title': { 'zh-CN': '工牌号', 'en-US': 'Badge no.' } } } } };

  it('layers a hospital override over the base, versioned; the new field is validated and stored in extra', async () => {
    const saved = await call(h.app, 'PUT', S, { token: admin, payload: { override: addField, note: 'badge' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.version).toBe(1);
    const layered = (await call(h.app, 'GET', S, { token: registrar })).json().data;
    expect(layered.schema.form.schema.properties.badge_no).toEqual({ type: 'string', maxLength: 20 });
    expect(layered.schema.form.schema.properties.name).toBeDefined();
    expect(layered.resource).toMatchObject({ name: 'users', route: '/api/system_management/users' });

    const id = (await h.db.selectFrom('users').select('id').where('name', '=', 'qc').executeTakeFirstOrThrow()).id;
    const tooLong = await call(h.app, 'PATCH', `/api/system_management/users/update/${id}`, { token: admin, lang: 'en-US', payload: { badge_no: 'x'.repeat(21) } });
    expect(tooLong.json().errors.badge_no).toEqual(['Badge no. allows at most 20 characters']);
    const ok = await call(h.app, 'PATCH', `/api/system_management/users/update/${id}`, { token: admin, payload: { badge_no: 'QC-007' } });
    expect(ok.json().data.badge_no).toBe('QC-007');
  });

  it('refuses an override that breaks the meta-schema, with the path, and keeps the current version', async () => {
    const res = await call(h.app, 'PUT', S, { token: admin, lang: 'en-US', payload: { override: { list: { columns: [{ prop: 'x' }] }, type: 'grid' } } });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/^The page schema is not valid: /);
    expect(Object.keys(res.json().errors)).toEqual(expect.arrayContaining(['/type', '/list/columns/0']));
    expect((await call(h.app, 'GET', S, { token: admin })).json().data.version).toBe(1);
  });

  it('lists versions and rolls back to the base as a new version', async () => {
    const versions = (await call(h.app, 'GET', `${S}/versions`, { token: admin })).json().data;
    expect(versions.map((v: { version: number }) => v.version)).toEqual([1]);
    const back = await call(h.app, 'POST', `${S}/rollback`, { token: admin, payload: { version: 0 } });
    expect(back.json().data.version).toBe(2);
    expect((await call(h.app, 'GET', S, { token: admin })).json().data.schema.form.schema.properties.badge_no).toBeUndefined();
    const forward = await call(h.app, 'POST', `${S}/rollback`, { token: admin, payload: { version: 1 } });
    expect(forward.json().data.schema.form.schema.properties.badge_no).toBeDefined();
  });

  it('keeps each user’s column preferences per alias', async () => {
    const cols = { columns: [{ prop: 'realname' }, { prop: 'name' }, { prop: 'email', hidden: true }] };
    expect((await call(h.app, 'PUT', `${S}/columns`, { token: registrar, payload: cols })).statusCode).toBe(200);
    expect((await call(h.app, 'GET', `${S}/columns`, { token: registrar })).json().data).toEqual(cols);
    expect((await call(h.app, 'GET', `${S}/columns`, { token: admin })).json().data).toEqual({ columns: [] });
  });

  it('lets only schema editors change schemas; unknown aliases are a translated 404', async () => {
    expect((await call(h.app, 'PUT', S, { token: registrar, payload: { override: {} } })).statusCode).toBe(403);
    const missing = await call(h.app, 'GET', '/api/schemas/NoSuchPage', { token: admin, lang: 'en-US' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Page NoSuchPage has no schema');
  });
});
