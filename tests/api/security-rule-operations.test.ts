import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import systemUser from '../../schemas/pages/SystemUser.json';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/** A form check that prints the pathology number it is given to the server's console, then compares it. */
const printing = { '==': [{ log: { var: 'pathology_number' } }, 'never'] };
const extension = { rules: { checks: [{ field: 'pathology_number', rule: printing, message: { 'en-US': 'printed', 'zh-CN': '已打印' } }] } };

/**
 * json-logic in form rules and page schemas keeps to the operations a rule set may use (src/core/ruleOperations.ts):
 * an administrator's `log` in a contract's form check or an action's visibleIf is refused at save, by path and naming
 * the operation, translated, and nothing is saved; one already stored (saved before the check) is refused when it
 * would run: the write's data never reaches the console, and the check that cannot be evaluated fails the write.
 */
describe.each(databases)('json-logic operations outside the allow-list [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  beforeAll(async () => {
    h = await startApp(kind);
    admin = await tokenFor(h.app, 'admin');
  });
  afterAll(async () => { await h.close(); });

  const contractVersion = async () => (await call(h.app, 'GET', '/api/contracts/cases', { token: admin })).json().data.version as number;

  it('refuses `log` in a contract extension’s form check, translated and naming the operation; saves nothing', async () => {
    const en = await call(h.app, 'PUT', '/api/contracts/cases', { token: admin, lang: 'en-US', payload: { override: extension } });
    expect(en.statusCode, en.body).toBe(422);
    expect(en.json().message).toBe('The field extension is not valid: /rules/checks/0/rule/==/0/log unknown operation "log"');
    expect(Object.keys(en.json().errors)).toEqual(['/rules/checks/0/rule/==/0/log']);
    const zh = await call(h.app, 'PUT', '/api/contracts/cases', { token: admin, lang: 'zh-CN', payload: { override: extension } });
    expect(zh.statusCode).toBe(422);
    expect(zh.json().message).toBe('字段扩展不符合规范：/rules/checks/0/rule/==/0/log unknown operation "log"');
    expect(await contractVersion()).toBe(0);
  });

  it('refuses `log` in a page schema’s action visibleIf', async () => {
    const rowActions = systemUser.list.rowActions.map((a) => (a.key === 'disable' ? { ...a, visibleIf: { log: { var: 'username' } } } : a));
    const res = await call(h.app, 'PUT', '/api/schemas/SystemUser', { token: admin, lang: 'en-US', payload: { override: { list: { rowActions } } } });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe('The page schema is not valid: /list/rowActions/1/visibleIf/log unknown operation "log"');
    expect((await call(h.app, 'GET', '/api/schemas/SystemUser', { token: admin })).json().data.version).toBe(0);
  });

  it('does not run `log` in a form check stored before the check: the data stays off the console, the write is refused', async () => {
    const stored = (await contractVersion()) + 1;
    const hospital = (await h.db.selectFrom('hospitals').select('id').where('code', '=', 'H001').executeTakeFirstOrThrow()).id;
    await h.db.insertInto('page_schema_versions').values({
      kind: 'resource', alias: 'cases', hospital_id: hospital, version: stored, override: JSON.stringify(extension),
      note: 'stored before the check', created_by: 'admin', created_at: new Date().toISOString(),
    }).execute();
    expect(await contractVersion()).toBe(stored);
    const marker = `LOG-${kind}-${Date.now()}`;
    const printed = vi.spyOn(console, 'log');
    try {
      const res = await call(h.app, 'POST', '/api/pathology/store', { token: admin, lang: 'en-US', payload: { pathology_number: marker, case_type: 'routine' } });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors).toEqual({ pathology_number: ['printed'] });
      expect(printed.mock.calls.filter((args) => args.some((a) => String(a).includes(marker)))).toEqual([]);
    } finally {
      printed.mockRestore();
    }
    expect(await h.db.selectFrom('cases').select('id').where('pathology_number', '=', marker).executeTakeFirst()).toBeUndefined();
  });
});
