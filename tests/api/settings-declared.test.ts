import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

const SETTING = '/api/common/setting';

/** A setting edited by a page form stores only what that form declares (SettingPassRate: qc13; SettingOther: system_config). */
describe.each(databases)('settings keep only the keys their form declares [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  beforeAll(async () => {
    h = await startApp(kind);
    admin = await tokenFor(h.app, 'admin');
  });
  afterAll(async () => { await h.close(); });

  const save = (key: string, value: unknown, lang = 'en-US') =>
    call(h.app, 'POST', SETTING, { token: admin, lang, payload: { settings_key: key, settings_value: JSON.stringify(value) } });
  const stored = async (key: string) => JSON.parse((await call(h.app, 'GET', `${SETTING}/get?settings_key=${key}`, { token: admin })).json().data);

  it('refuses a key the form does not declare with a 422 naming it, in either language, and stores nothing', async () => {
    const before = await stored('statistic_pass_rate');
    const en = await save('statistic_pass_rate', { qc13: 90, other: 1 });
    expect(en.statusCode).toBe(422);
    expect(en.json().errors.other).toEqual(['other is not a field of this form and cannot be saved']);
    expect(en.json().errors.qc13).toBeUndefined();
    const zh = await save('statistic_pass_rate', { qc13: 90, other: 1 }, 'zh-CN');
    expect(zh.statusCode).toBe(422);
    expect(zh.json().errors.other).toEqual(['other 不是此表单的字段，不能保存']);
    expect(await stored('statistic_pass_rate')).toEqual(before);
  });

  it('names every undeclared key alongside the form\'s own errors', async () => {
    const res = await save('statistic_pass_rate', { qc13: 150, other: 1, __proto_like: 'x' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['__proto_like', 'other', 'qc13']);
  });

  it('applies to every form-edited setting (system_config of SettingOther), and a declared body still saves', async () => {
    const before = await stored('system_config');
    const config = { network_protocol: 'https', hisport: 9001, upload_protocol: 'http' };
    const refused = await save('system_config', { ...config, mail_server: 'smtp.example.org' });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors)).toEqual(['mail_server']);
    expect(await stored('system_config')).toEqual(before);
    expect((await save('system_config', config)).statusCode).toBe(200);
    expect(await stored('system_config')).toEqual(config);
    expect((await save('statistic_pass_rate', { qc13: 90 })).statusCode).toBe(200);
    expect(await stored('statistic_pass_rate')).toEqual({ qc13: 90 });
  });
});
