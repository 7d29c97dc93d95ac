import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

const S = '/api/schemas/SystemUser';
const C = '/api/contracts/users';

describe.each(databases)('schema store [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  let registrar: string;
  beforeAll(async () => {
    h = await startApp(kind);
    [admin, registrar] = await Promise.all([tokenFor(h.app, 'admin'), tokenFor(h.app, 'registrar')]);
  });
  afterAll(async () => { await h.close(); });

  const badge = { type: 'string', maxLength: 20, label: { 'zh-CN': '工牌号', 'en-US': 'Badge no.' } };
  const addField = { fields: { badge_no: badge } };
  const relabel = { list: { columns: [{ field: 'name', label: { 'zh-CN': '工号', 'en-US': 'Staff no.' } }, { field: 'realname' }] } };

  it('layers a hospital override over the base page, and an extension over the resource contract, each versioned; the new field is validated and stored in extra', async () => {
    const saved = await call(h.app, 'PUT', S, { token: admin, payload: { override: relabel, note: 'relabel' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.version).toBe(1);
    const extended = await call(h.app, 'PUT', C, { token: admin, payload: { override: addField, note: 'badge' } });
    expect(extended.statusCode, extended.body).toBe(200);
    expect(extended.json().data.version).toBe(1);

    const layered = (await call(h.app, 'GET', S, { token: registrar })).json().data;
    expect(layered.schema.list.columns).toEqual(relabel.list.columns);
    expect(layered.resource).toMatchObject({ name: 'users', route: '/api/system_management/users' });
    // The resource describes its fields once; the contract carries the hospital's field, marked as its own.
    expect(layered.resource.fields.name.label).toEqual({ 'zh-CN': '账号', 'en-US': 'Account' });
    expect(layered.resource.contract.fields.badge_no).toEqual(badge);
    expect(layered.resource.contract.extended).toEqual(['badge_no']);
    expect(layered.resource.contract.fields.name).toMatchObject({ type: 'string', maxLength: 64 });

    const id = (await h.db.selectFrom('users').select('id').where('name', '=', 'qc').executeTakeFirstOrThrow()).id;
    const tooLong = await call(h.app, 'PATCH', `/api/system_management/users/update/${id}`, { token: admin, lang: 'en-US', payload: { badge_no: 'x'.repeat(21) } });
    expect(tooLong.json().errors.badge_no).toEqual(['Badge no. allows at most 20 characters']);
    const ok = await call(h.app, 'PATCH', `/api/system_management/users/update/${id}`, { token: admin, payload: { badge_no: 'QC-007' } });
    expect(ok.json().data.badge_no).toBe('QC-007');
  });

  it('refuses an extension that would loosen or replace what the resource accepts', async () => {
    const refuse = async (override: object, path: string) => {
      const res = await call(h.app, 'PUT', C, { token: admin, lang: 'en-US', payload: { override } });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toMatch(/^The field extension is not valid: /);
      expect(Object.keys(res.json().errors)).toContain(path);
    };
    await refuse({ fields: { name: { type: 'string', maxLength: 9999 } } }, '/fields/name');
    await refuse({ rules: { visibleIf: { realname: false } } }, '/rules/visibleIf/realname');
    await refuse({ required: ['no_such'] }, '/required');
    await refuse({ fields: { x: { type: 'blob' } } }, '/fields/x/type');
    expect((await call(h.app, 'GET', C, { token: admin })).json().data.version).toBe(1);
    expect((await call(h.app, 'GET', `${C}/base`, { token: admin })).json().data.required).toEqual(['name', 'realname', 'role_ids', 'hospital_ids']);
    expect((await call(h.app, 'PUT', C, { token: registrar, payload: { override: {} } })).statusCode).toBe(403);
  });

  it('makes a field required only when a rule says so, on the server too, and never less than the resource requires', async () => {
    const rule = { fields: { badge_no: badge }, rules: { requiredIf: { badge_no: { '==': [{ var: 'status' }, 0] }, realname: false } } };
    expect((await call(h.app, 'PUT', C, { token: admin, payload: { override: rule } })).statusCode).toBe(200);
    const id = (await h.db.selectFrom('users').select('id').where('name', '=', 'qc').executeTakeFirstOrThrow()).id;
    const disabling = await call(h.app, 'PATCH', `/api/system_management/users/update/${id}`, { token: admin, lang: 'en-US', payload: { status: 0, badge_no: '' } });
    expect(disabling.statusCode).toBe(422);
    expect(disabling.json().errors.badge_no).toEqual(['Badge no. is required']);
    // `requiredIf: false` on a field the resource requires does not make it optional.
    const blank = await call(h.app, 'PATCH', `/api/system_management/users/update/${id}`, { token: admin, lang: 'en-US', payload: { realname: '' } });
    expect(blank.statusCode).toBe(422);
    expect(Object.keys(blank.json().errors)).toEqual(['realname']);
    expect((await call(h.app, 'POST', `${C}/rollback`, { token: admin, payload: { version: 1 } })).statusCode).toBe(200);
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
    expect((await call(h.app, 'GET', S, { token: admin })).json().data.schema.list.columns).not.toEqual(relabel.list.columns);
    const forward = await call(h.app, 'POST', `${S}/rollback`, { token: admin, payload: { version: 1 } });
    expect(forward.json().data.schema.list.columns).toEqual(relabel.list.columns);

    const contract = async () => (await call(h.app, 'GET', S, { token: admin })).json().data.resource.contract.fields;
    expect((await call(h.app, 'POST', `${C}/rollback`, { token: admin, payload: { version: 0 } })).statusCode).toBe(200);
    expect((await contract()).badge_no).toBeUndefined();
    const again = await call(h.app, 'POST', `${C}/rollback`, { token: admin, payload: { version: 1 } });
    expect(again.statusCode, again.body).toBe(200);
    expect((await contract()).badge_no).toEqual(badge);
  });

  it('keeps each user’s column preferences per alias', async () => {
    const cols = { columns: [{ prop: 'realname' }, { prop: 'name' }, { prop: 'email', hidden: true }] };
    expect((await call(h.app, 'PUT', `${S}/columns`, { token: registrar, payload: cols })).statusCode).toBe(200);
    expect((await call(h.app, 'GET', `${S}/columns`, { token: registrar })).json().data).toEqual(cols);
    expect((await call(h.app, 'GET', `${S}/columns`, { token: admin })).json().data).toEqual({ columns: [] });
  });

  it('answers the schemas of several pages in one request, each as its own route answers it, leaving unknown aliases out', async () => {
    const bundle = await call(h.app, 'GET', '/api/schema-bundle?aliases=SystemUser,CaseList,NoSuchPage,SystemUser', { token: registrar });
    expect(bundle.statusCode, bundle.body).toBe(200);
    const data = bundle.json().data;
    expect(Object.keys(data).sort()).toEqual(['CaseList', 'SystemUser']);
    for (const alias of ['SystemUser', 'CaseList']) expect(data[alias]).toEqual((await call(h.app, 'GET', `/api/schemas/${alias}`, { token: registrar })).json().data);
    // Signed in only; a list that is not aliases, or too long, is a 422 that names the parameter.
    expect((await call(h.app, 'GET', '/api/schema-bundle?aliases=SystemUser')).statusCode).toBe(401);
    for (const bad of ['', 'SystemUser,../x', Array.from({ length: 201 }, () => 'A').join(',')]) {
      const refused = await call(h.app, 'GET', `/api/schema-bundle?aliases=${encodeURIComponent(bad)}`, { token: registrar, lang: 'en-US' });
      expect(refused.statusCode, bad.slice(0, 40)).toBe(422);
      expect(refused.body).toContain('aliases');
    }
  });

  it('lets only schema editors change schemas; unknown aliases are a translated 404', async () => {
    expect((await call(h.app, 'PUT', S, { token: registrar, payload: { override: {} } })).statusCode).toBe(403);
    const missing = await call(h.app, 'GET', '/api/schemas/NoSuchPage', { token: admin, lang: 'en-US' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Page NoSuchPage has no schema');
  });
});
