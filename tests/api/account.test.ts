import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, loginAs, seal, startApp, tokenFor, type Harness } from './harness.js';

const PROFILE = '/api/account/profile';

describe.each(databases)('own account [%s]', (kind) => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await startApp(kind);
    token = await tokenFor(h.app, 'technician');
  });
  afterAll(async () => { await h.close(); });

  it('reads and updates the caller’s own profile', async () => {
    expect((await call(h.app, 'GET', PROFILE, { token })).json().data).toMatchObject({ name: 'technician', realname: '张技术' });
    const res = await call(h.app, 'PATCH', PROFILE, { token, payload: { realname: '张技术员', phone: '010-1234' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ realname: '张技术员', phone: '010-1234' });
  });

  it('changes the password only with the right current one and two matching new ones, all sealed', async () => {
    const mismatch = await call(h.app, 'PATCH', PROFILE, { token, lang: 'en-US', payload: {
      old_password: await seal(h.app, 'dsms-demo'), password: await seal(h.app, 'new-secret-1'), password_confirmation: await seal(h.app, 'new-secret-2') } });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().errors.password_confirmation).toEqual(['The two passwords do not match']);

    const wrongOld = await call(h.app, 'PATCH', PROFILE, { token, lang: 'zh-CN', payload: {
      old_password: await seal(h.app, 'not-it'), password: await seal(h.app, 'new-secret-1'), password_confirmation: await seal(h.app, 'new-secret-1') } });
    expect(wrongOld.statusCode).toBe(422);
    expect(wrongOld.json().errors.old_password).toEqual(['当前密码错误']);
    expect((await loginAs(h.app, 'technician', 'dsms-demo')).statusCode).toBe(200);

    const done = await call(h.app, 'PATCH', PROFILE, { token, payload: {
      old_password: await seal(h.app, 'dsms-demo'), password: await seal(h.app, 'new-secret-1'), password_confirmation: await seal(h.app, 'new-secret-1') } });
    expect(done.statusCode, done.body).toBe(200);
    expect((await loginAs(h.app, 'technician', 'dsms-demo')).statusCode).toBe(422);
    expect((await loginAs(h.app, 'technician', 'new-secret-1')).statusCode).toBe(200);
  });

  it('refuses a password sent in clear text', async () => {
    const res = await call(h.app, 'PATCH', PROFILE, { token, payload: { password: 'plain-text-1' } });
    expect(res.statusCode).toBe(422);
  });
});
