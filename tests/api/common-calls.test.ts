import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, seal, startApp, testApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * Spec §7's remaining common calls (issue 17) on both databases: transform_language keeps the user's language with
 * the user (logged, another user's untouched, the detail answers it), getBaseInfo, setting/type, users/switch.
 */
describe.each(databases)('common calls [%s]', (kind) => {
  let h: Harness;
  let primary: string;

  beforeAll(async () => {
    h = await startApp(kind);
    primary = await tokenFor(h.app, 'primary');
  });
  afterAll(async () => h?.close());

  it('transform_language saves the user’s language, answers it, and the user’s detail carries it', async () => {
    const id = await userId(h.db, 'primary');
    expect((await call(h.app, 'GET', '/api/system_management/users/transform_language', { token: primary })).json().data).toEqual({ lang: null });
    const saved = await call(h.app, 'POST', '/api/system_management/users/transform_language?lang=en-US', { token: primary });
    expect(saved.json().data).toEqual({ lang: 'en-US' });
    expect((await call(h.app, 'GET', `/api/system_management/users/detail/${id}`, { token: primary })).json().data.lang).toBe('en-US');
    expect((await call(h.app, 'GET', '/api/system_management/users/transform_language?lang=fr-FR', { token: primary })).statusCode).toBe(422);
    // Only the caller's own; another user's stays unset; the change is in the operation log.
    expect((await call(h.app, 'GET', '/api/system_management/users/transform_language', { token: await tokenFor(h.app, 'auditor') })).json().data).toEqual({ lang: null });
    const logged = await h.db.selectFrom('operation_logs').select('path').where('user_id', '=', id).execute();
    expect(logged.map((l) => l.path).join(' ')).toContain('transform_language');
  });

  it('getBaseInfo answers the version, the server time and the working hospital; setting/type lists keys without values', async () => {
    const info = (await call(h.app, 'GET', '/api/common/getBaseInfo', { token: primary })).json().data;
    expect(info).toMatchObject({ version: expect.any(String), default_lang: 'zh-CN', hospital: { id: expect.any(Number) } });
    expect(Math.abs(Date.parse(info.server_time) - Date.now())).toBeLessThan(60_000);
    expect(info.hospitals.length).toBe(2);
    expect((await call(h.app, 'GET', '/api/common/getBaseInfo')).statusCode).toBe(401);
    const types = (await call(h.app, 'GET', '/api/common/setting/type?type=public', { token: primary })).json().data as { key: string; type: string }[];
    expect(types.map((t) => t.key)).toEqual(expect.arrayContaining(['lang', 'hospital_logo']));
    expect(types.every((t) => t.type === 'public' && !('value' in t))).toBe(true);
  });

  it('users/switch signs the other account in and ends this session; a wrong password changes nothing', async () => {
    const mine = await tokenFor(h.app, 'registrar');
    const wrong = await call(h.app, 'POST', '/api/system_management/users/switch', { token: mine, lang: 'en-US', payload: { username: 'sampler', ...(await seal(h.app, 'not-it')) } });
    expect(wrong.statusCode).toBe(422);
    expect((await call(h.app, 'GET', '/api/system_management/users/permission', { token: mine })).statusCode).toBe(200);

    const switched = await call(h.app, 'POST', '/api/system_management/users/switch', { token: mine, payload: { username: 'sampler', ...(await seal(h.app, 'dsms-demo')) } });
    expect(switched.statusCode, switched.body).toBe(200);
    const next = switched.json().data as { access_token: string; user_id: number };
    expect(next.user_id).toBe(await userId(h.db, 'sampler'));
    expect(switched.headers['set-cookie']).toBeDefined();
    expect((await call(h.app, 'GET', '/api/system_management/users/permission', { token: next.access_token })).statusCode).toBe(200);
    expect((await call(h.app, 'GET', '/api/system_management/users/permission', { token: mine })).statusCode).toBe(401);
    expect((await call(h.app, 'POST', '/api/system_management/users/switch', { payload: { username: 'sampler', ...(await seal(h.app, 'dsms-demo')) } })).statusCode).toBe(401);
  });

  it('users/switch is rate-limited per address like the login (429 after the limit), so it is no password oracle', async () => {
    const limited = await testApp(h.db, { authRateLimitPerMinute: 2 });
    try {
      // Token and seals from the unlimited app (same database): only the switch itself is counted here.
      const token = await tokenFor(h.app, 'technician');
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) {
        codes.push((await call(limited, 'POST', '/api/system_management/users/switch', { token, payload: { username: 'nobody', ...(await seal(h.app, 'guess')) } })).statusCode);
      }
      expect(codes).toEqual([422, 422, 429]);
    } finally {
      await limited.close();
    }
  });
});
