import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/**
 * SettingPathological (issue 10): the hospital's numbering rules through the generic resource
 * /api/setting/numbering-rules (system_setting), checked like PUT /api/pathology/numbering-rules; a rule written
 * there numbers the next registration of its library. A bad rule is a translated 422 that changes nothing.
 */
describe.each(databases)('numbering rules as a resource [%s]', (kind) => {
  let h: Harness;
  const t: Record<string, string> = {};
  const route = '/api/setting/numbering-rules';
  const rules = () => h.db.selectFrom('numbering_rules').selectAll().orderBy('id').execute();

  beforeAll(async () => {
    h = await startApp(kind);
    for (const u of ['admin', 'registrar']) t[u] = await tokenFor(h.app, u);
  });
  afterAll(async () => h?.close());

  it('the administrator adds a library rule; the next case of that library is numbered by it', async () => {
    const made = await call(h.app, 'POST', `${route}/store`, { token: t.admin, payload: { library: 'frozen', name: '冰冻', prefix: 'F', middle: 'YY', connector: '_', length: 4 } });
    expect(made.statusCode, made.body).toBe(200);
    const listed = await call(h.app, 'GET', `${route}/lists`, { token: t.admin });
    expect(listed.json().data.data.map((r: { library: string }) => r.library)).toContain('frozen');

    const reg = await call(h.app, 'POST', '/api/pathology/register', { token: t.registrar, payload: { case_type: 'frozen', patient_name: '冰冻患者', specimens: [{ name: '甲状腺' }] } });
    expect(reg.statusCode, reg.body).toBe(200);
    expect(reg.json().data.pathology_number).toBe(`F${String(new Date().getFullYear()).slice(2)}_0001`);
  });

  it('refuses a regex that does not compile and an unknown connector with the translated message; nothing changes', async () => {
    const before = await rules();
    const id = before.find((r) => r.library === 'frozen')!.id;
    for (const [url, method, payload] of [
      [`${route}/store`, 'POST', { library: 'cell', prefix: 'C', middle: 'YYYY', connector: '-', length: 5, regex: '(' }],
      [`${route}/update/${id}`, 'PATCH', { connector: '*' }],
      [`${route}/update/${id}`, 'PATCH', { length: 12 }],
    ] as const) {
      const res = await call(h.app, method, url, { token: t.admin, lang: 'zh-CN', payload });
      expect(res.statusCode, res.body).toBe(422);
    }
    const bad = await call(h.app, 'POST', `${route}/store`, { token: t.admin, lang: 'zh-CN', payload: { library: 'cell', prefix: 'C', middle: 'YYYY', connector: '-', length: 5, regex: '(' } });
    expect(bad.json().message).toBe('编号规则不正确');
    expect(await rules()).toEqual(before);
  });

  it('only holders of system_setting see or change the rules', async () => {
    expect((await call(h.app, 'GET', `${route}/lists`, { token: t.registrar })).statusCode).toBe(403);
    expect((await call(h.app, 'POST', `${route}/store`, { token: t.registrar, payload: { library: 'cell', prefix: 'C', middle: 'YYYY', connector: '-', length: 5 } })).statusCode).toBe(403);
  });
});
