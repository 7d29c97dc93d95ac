import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPageSchema } from '../../src/core/pageSchemaCheck.js';
import type { Db } from '../../server/db/connect.js';
import { migrateToLatest, migrateUpTo } from '../../server/db/migrate.js';
import { seed } from '../../server/db/seed/index.js';
import { call, databases, emptyDatabase, testApp, tokenFor } from './harness.js';

const title = (zh: string, en: string) => ({ 'ui:title': { 'zh-CN': zh, 'en-US': en } });

/** Overrides a hospital saved in the first page language (before migration 0012). */
const OLD_USER_PAGE_V1 = { list: { columns: [{ prop: 'name', label: { 'zh-CN': '工号', 'en-US': 'Staff no.' }, type: 'text', fixed: 'left', sortable: true }, { prop: 'realname', label: '姓名', type: 'text' }] } };
const OLD_USER_PAGE_V2 = {
  ...OLD_USER_PAGE_V1,
  search: { items: [{ name: 'name', label: '账号', type: 'input', operator: 'like', status: true }, { name: 'created_at', label: '创建', type: 'datetimerange', status: true, show: false, formatFunc: 'x' }] },
  form: {
    schema: { required: ['badge_no'], properties: { badge_no: { type: ['string', 'null'], maxLength: 20 }, realname: { type: 'string', maxLength: 10 } } },
    uiSchema: { badge_no: title('工牌号', 'Badge no.'), email: { 'ui:help': { 'zh-CN': '工作邮箱', 'en-US': 'Work email' } }, 'ui:order': ['name', 'badge_no', '*'] },
    rules: { visibleIf: { realname: { '==': [{ var: 'status' }, 1] }, badge_no: { '==': [{ var: 'status' }, 1] } } },
  },
};
const OLD_CASE_PAGE = { list: { rowKey: 'id', tabs: [{ key: 'frozen', label: '冰冻', filter: [{ column: 'case_type', operator: '=', value: 'frozen' }] }] } };
const OLD_OPERATORS = { rules: { input: { if: [{ '==': [{ var: 'name' }, 'name'] }, ['like'], ['=']] } } };

/** Migration 0012: an installation's stored overrides reach the second page language; nothing saved is lost. */
describe.each(databases)('page language upgrade [%s]', (kind) => {
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

  it('rewrites every stored version in the new language, moves form additions to the contract, and names what it could not keep', async () => {
    db = await open();
    await migrateUpTo(db, '0011_rule_overrides', schema);
    const at = new Date().toISOString();
    const version = (kind: string, alias: string, v: number, override: object) =>
      ({ kind, alias, hospital_id: 1, version: v, override: JSON.stringify(override), note: `saved ${v}`, created_by: 'admin', created_at: at });
    await db.insertInto('page_schema_versions').values([
      version('page', 'SystemUser', 1, OLD_USER_PAGE_V1), version('page', 'SystemUser', 2, OLD_USER_PAGE_V2),
      version('page', 'CaseList', 1, OLD_CASE_PAGE), version('rule', 'search-operators', 1, OLD_OPERATORS),
    ]).execute();
    await migrateToLatest(db, schema);
    await seed(db, true);
    app = await testApp(db);
    await app.ready();
    const admin = await tokenFor(app, 'admin');

    // Each stored version is a valid page of the new language once layered.
    for (const alias of ['SystemUser', 'CaseList']) {
      for (const v of (await call(app, 'GET', `/api/schemas/${alias}/versions`, { token: admin })).json().data as { version: number; override: object }[]) {
        const base = (await call(app, 'GET', `/api/schemas/${alias}/base`, { token: admin })).json().data;
        expect(checkPageSchema({ ...base, ...v.override, list: { ...base.list, ...(v.override as { list?: object }).list } }), `${alias} v${v.version}`).toEqual([]);
      }
    }
    const page = (await call(app, 'GET', '/api/schemas/SystemUser', { token: admin })).json().data;
    expect(page.version).toBe(2);
    expect(page.schema.list.columns).toEqual([
      { field: 'name', label: { 'zh-CN': '工号', 'en-US': 'Staff no.' }, cell: 'text', pinned: true, sortable: true },
      { field: 'realname', label: '姓名', cell: 'text' },
    ]);
    expect(page.schema.search.items).toEqual([
      { field: 'name', label: '账号', widget: 'input', operator: 'like', customSearch: true },
      { field: 'created_at', label: '创建', widget: 'datetimerange', customSearch: true, drawerOnly: true },
    ]);
    const layout = page.schema.form.fields as (string | { field: string })[];
    const names = layout.map((f) => (typeof f === 'string' ? f : f.field));
    expect(names.slice(0, 2)).toEqual(['name', 'badge_no']);
    expect(layout).toContainEqual({ field: 'email', help: { 'zh-CN': '工作邮箱', 'en-US': 'Work email' } });
    expect(checkPageSchema(page.schema)).toEqual([]);

    // The hospital's added field, its requirement and its rule became the contract extension; the changed limit
    // of a resource field and the rule hiding a required field could not be kept, and the note says so.
    expect(page.resource.contract.fields.badge_no).toEqual({ type: 'string', maxLength: 20, label: { 'zh-CN': '工牌号', 'en-US': 'Badge no.' } });
    expect(page.resource.contract.required).toContain('badge_no');
    expect(page.resource.contract.rules.visibleIf.badge_no).toEqual({ '==': [{ var: 'status' }, 1] });
    expect(page.resource.contract.rules.visibleIf.realname).toBeUndefined();
    expect(page.resource.contract.fields.realname.maxLength).toBe(255);
    const notes = (await call(app, 'GET', '/api/schemas/SystemUser/versions', { token: admin })).json().data.map((v: { note: string }) => v.note);
    expect(notes[0]).toMatch(/^saved 2 \| page language 2: .*realname.*resource.*visibleIf\.realname/);
    expect(notes[1]).toBe('saved 1');
    expect((await call(app, 'GET', '/api/contracts/users/versions', { token: admin })).json().data).toHaveLength(1);

    // The server holds the extension: a user without the badge is refused, with it accepted and kept in extra.
    const qc = (await db.selectFrom('users').select('id').where('name', '=', 'qc').executeTakeFirstOrThrow()).id;
    const refused = await call(app, 'PATCH', `/api/system_management/users/update/${qc}`, { token: admin, lang: 'en-US', payload: { status: 1, realname: 'QC' } });
    expect(refused.json().errors).toEqual({ badge_no: ['Badge no. is required'] });
    const saved = await call(app, 'PATCH', `/api/system_management/users/update/${qc}`, { token: admin, payload: { badge_no: 'QC-7' } });
    expect(saved.statusCode, saved.body).toBe(200);

    // A rollback to the first version, saved before the upgrade, still works.
    const back = await call(app, 'POST', '/api/schemas/SystemUser/rollback', { token: admin, payload: { version: 1 } });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().data.schema.list.columns[0].field).toBe('name');

    // Tab filters name fields; the search-operators override reads { widget, field }.
    const cases = (await call(app, 'GET', '/api/schemas/CaseList', { token: admin })).json().data;
    expect(cases.schema.list.tabs).toEqual([{ key: 'frozen', label: '冰冻', filter: [{ field: 'case_type', operator: '=', value: 'frozen' }] }]);
    expect(cases.schema.list.rowKey).toBeUndefined();
    const rules = (await call(app, 'GET', '/api/rules/search-operators', { token: admin })).json().data;
    expect(rules.schema.rules.input).toEqual({ if: [{ '==': [{ var: 'field' }, 'name'] }, ['like'], ['=']] });
  });
});
