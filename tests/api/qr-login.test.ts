import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * QR login (issue 17, spec §7 `ca/login`, `ca/login/check`) on both databases: a code, approved from a signed-in
 * phone, gives the waiting browser a session of the approving user once; the wrong secret, a reused, declined or
 * expired code are refused with their own words; two racing collections give one session.
 */
describe.each(databases)('QR login [%s]', (kind) => {
  let h: Harness;
  let phone: string;

  beforeAll(async () => {
    h = await startApp(kind);
    phone = await tokenFor(h.app, 'primary');
  });
  afterAll(async () => h?.close());

  const ask = async () => {
    const res = await call(h.app, 'POST', '/api/ca/login', {});
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { id: string; secret: string; url: string; qr: string; expires_in: number };
  };
  const check = (code: { id: string; secret: string }, lang = 'en-US') => call(h.app, 'POST', '/api/ca/login/check', { lang, payload: { id: code.id, secret: code.secret } });
  const answer = (id: string, approve: boolean, token = phone) => call(h.app, 'POST', '/api/ca/login/approve', { token, lang: 'en-US', payload: { id, approve } });

  it('approved on the phone, the waiting browser collects a session of that user, once', async () => {
    const code = await ask();
    expect(code.url).toMatch(new RegExp(`/h5/qr-login\\?c=${code.id}$`));
    expect(code.qr).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(code.qr.split(',')[1]!, 'base64').toString()).toContain('<svg');
    expect((await check(code)).json().data).toEqual({ status: 'waiting' });
    // The phone sees what asks before it answers; approving needs a session.
    const seen = await call(h.app, 'GET', `/api/ca/login/request/${code.id}`, { token: phone });
    expect(seen.json().data).toMatchObject({ status: 'waiting' });
    expect((await call(h.app, 'POST', '/api/ca/login/approve', { payload: { id: code.id, approve: true } })).statusCode).toBe(401);
    expect((await answer(code.id, true)).statusCode).toBe(200);

    const collected = await check(code);
    expect(collected.statusCode, collected.body).toBe(200);
    const session = collected.json().data as { status: string; access_token: string; user_id: number };
    expect(session.status).toBe('approved');
    expect(session.user_id).toBe(await userId(h.db, 'primary'));
    expect(collected.headers['set-cookie']).toBeDefined();
    const me = await call(h.app, 'GET', '/api/system_management/users/permission', { token: session.access_token });
    expect(me.statusCode).toBe(200);

    const again = await check(code, 'zh-CN');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('二维码已被使用，请刷新后重新扫描');
    expect((await answer(code.id, true)).statusCode).toBe(409);
    const log = await h.db.selectFrom('login_logs').select(['reason', 'success']).where('user_id', '=', session.user_id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log).toEqual({ reason: 'qr', success: 1 });
  });

  it('refuses a wrong secret, a declined code and an expired one, each in its own words', async () => {
    const code = await ask();
    const forged = await check({ id: code.id, secret: 'x'.repeat(43) });
    expect(forged.statusCode).toBe(404);
    expect(forged.json().message).toBe('This QR code is not valid; refresh it and scan again');

    expect((await answer(code.id, false)).statusCode).toBe(200);
    const declined = await check(code);
    expect(declined.statusCode).toBe(403);
    expect(declined.json().message).toBe('The sign-in was declined on the phone');

    const late = await ask();
    await h.db.updateTable('qr_logins').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('status', '=', 'waiting').execute();
    const approveLate = await answer(late.id, true);
    expect(approveLate.statusCode).toBe(410);
    expect(approveLate.json().message).toBe('This QR code has expired; refresh it and scan again');
    expect((await check(late)).statusCode).toBe(410);
  });

  it('gives one session to two racing collections', async () => {
    const code = await ask();
    expect((await answer(code.id, true)).statusCode).toBe(200);
    const both = await Promise.all([check(code), check(code), check(code)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
  });
});
