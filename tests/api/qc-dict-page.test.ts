import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/**
 * The QC dictionary page (SettingQcDict, issue 16): the generic resource over qc_dict beside spec §7's routes. The
 * quality controller finds it in the menu, adds, renames and disables entries of the working hospital; what the page
 * writes is what `config/dict/qc/lists` answers, under the same rules (a name once per list, new entries last);
 * readers and other roles are refused, bad input is refused in words and changes nothing, another hospital's
 * entries are out of reach.
 */
describe.each(databases)('QC dictionary page [%s]', (kind) => {
  let h: Harness;
  let qc: string;
  let registrar: string;
  const route = '/api/config/dict/qc/entries';

  beforeAll(async () => {
    h = await startApp(kind);
    qc = await tokenFor(h.app, 'qc');
    registrar = await tokenFor(h.app, 'registrar');
  });
  afterAll(async () => h?.close());

  const spec = async (type: string) => (await call(h.app, 'GET', `/api/config/dict/qc/lists?type=${type}`, { token: registrar })).json().data as { id: number; name: string; rank: number; enabled: number }[];
  const menu = async (token: string) => JSON.stringify((await call(h.app, 'GET', '/api/system_management/users/menu', { token })).json().data);

  it('is in the quality controller’s menu and not in the registrar’s; only qc_manage lists or writes it', async () => {
    expect(await menu(qc)).toContain('SettingQcDict');
    expect(await menu(await tokenFor(h.app, 'admin'))).toContain('SettingQcDict');
    expect(await menu(registrar)).not.toContain('SettingQcDict');
    expect((await call(h.app, 'GET', `${route}/lists`, { token: registrar })).statusCode).toBe(403);
    expect((await call(h.app, 'POST', `${route}/store`, { token: registrar, payload: { type: 'timeout_reason', name: '无权' } })).statusCode).toBe(403);
    expect(await spec('timeout_reason')).toEqual([]);
  });

  it('adds at the end of the list, renames and disables, as the spec routes read it; each write logged', async () => {
    const made = await call(h.app, 'POST', '/api/config/dict/qc/store_many', { token: qc, payload: { type: 'timeout_reason', items: [{ name: '等待会诊' }, { name: '补取材' }] } });
    expect(made.statusCode, made.body).toBe(200);
    const [general, branch] = (await h.db.selectFrom('hospitals').select('id').orderBy('id').execute()).map((r) => r.id);
    const added = await call(h.app, 'POST', `${route}/store`, { token: qc, payload: { type: 'timeout_reason', name: '  设备故障 ', en_name: 'Equipment failure', hospital_id: branch } });
    expect(added.statusCode, added.body).toBe(200);
    const stored = await h.db.selectFrom('qc_dict').selectAll().where('name', '=', '设备故障').executeTakeFirstOrThrow();
    expect([stored.hospital_id, stored.type, stored.enabled]).toEqual([general, 'timeout_reason', 1]);
    expect((await spec('timeout_reason')).map((r) => [r.name, r.rank])).toEqual([['等待会诊', 1], ['补取材', 2], ['设备故障', 3]]);

    const listed = (await call(h.app, 'GET', `${route}/lists?type=timeout_reason`, { token: qc })).json().data.data as { name: string }[];
    expect(listed.map((r) => r.name)).toEqual(['等待会诊', '补取材', '设备故障']);

    const changed = await call(h.app, 'PATCH', `${route}/update/${stored.id}`, { token: qc, payload: { name: '设备故障（扫描仪）', enabled: 0, rank: 0 } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await spec('timeout_reason')).map((r) => [r.name, r.enabled])).toEqual([['设备故障（扫描仪）', 0], ['等待会诊', 1], ['补取材', 1]]);
    const logs = await h.db.selectFrom('operation_logs').select(['route', 'status_code']).where('route', 'like', `${route}/%`).where('status_code', '=', 200).execute();
    expect(logs.map((l) => l.route).sort()).toEqual([`${route}/store`, `${route}/update/:id`]);
  });

  it('refuses a name already in the list, an unknown list and an empty name, in both languages, changing nothing', async () => {
    const before = await spec('timeout_reason');
    const dupEn = await call(h.app, 'POST', `${route}/store`, { token: qc, lang: 'en-US', payload: { type: 'timeout_reason', name: '补取材' } });
    expect(dupEn.statusCode).toBe(422);
    expect(dupEn.json().message).toBe('The “timeout_reason” list already has: 补取材');
    const dupZh = await call(h.app, 'POST', `${route}/store`, { token: qc, lang: 'zh-CN', payload: { type: 'timeout_reason', name: '补取材' } });
    expect(dupZh.json().message).toBe('字典“timeout_reason”中已有：补取材');
    const [first] = before;
    const rename = await call(h.app, 'PATCH', `${route}/update/${first!.id}`, { token: qc, payload: { name: '补取材' } });
    expect(rename.statusCode).toBe(422);
    for (const payload of [{ type: 'no_such_list', name: 'x' }, { type: 'timeout_reason', name: '' }, { type: 'timeout_reason', name: '   ' }, { name: '无类型' }]) {
      const res = await call(h.app, 'POST', `${route}/store`, { token: qc, lang: 'en-US', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().message).toMatch(/\S/);
    }
    expect((await call(h.app, 'PATCH', `${route}/update/${first!.id}`, { token: qc, payload: { type: 'fixation' } })).statusCode).toBe(422);
    expect(await spec('timeout_reason')).toEqual(before);
  });

  it('keeps one of eight parallel saves of one name, from the page and from store_many alike', async () => {
    const page = () => call(h.app, 'POST', `${route}/store`, { token: qc, payload: { type: 'fixation', name: '同名并发' } });
    const many = () => call(h.app, 'POST', '/api/config/dict/qc/store_many', { token: qc, payload: { type: 'fixation', items: [{ name: '同名并发' }] } });
    const codes = (await Promise.all([page(), page(), page(), many(), page(), page(), many(), page()])).map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 422, 422, 422, 422, 422, 422, 422]);
    expect((await spec('fixation')).filter((r) => r.name === '同名并发')).toHaveLength(1);
  });

  it('leaves another hospital’s entries out of reach', async () => {
    const branch = (await h.db.selectFrom('hospitals').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
    const now = new Date().toISOString();
    const foreign = await h.db.insertInto('qc_dict').values({ hospital_id: branch, type: 'timeout_reason', name: '分院原因', en_name: null, code: null, rank: 1, enabled: 1, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
    const listed = (await call(h.app, 'GET', `${route}/lists`, { token: qc })).json().data.data as { name: string }[];
    expect(listed.map((r) => r.name)).not.toContain('分院原因');
    expect((await call(h.app, 'PATCH', `${route}/update/${foreign.id}`, { token: qc, payload: { name: '越权' } })).statusCode).toBe(404);
    expect((await h.db.selectFrom('qc_dict').select('name').where('id', '=', foreign.id).executeTakeFirstOrThrow()).name).toBe('分院原因');
  });
});
