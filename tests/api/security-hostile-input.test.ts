import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../server/i18n/translate.js';
import { call, databases, seal, startApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * Issue 27, finding 7: PostgreSQL answered 500 to ids above 2^31−1 and to NUL in text (68 of 119 id routes, every
 * generic delete, registration, messages, meetings, profile, rule overrides, the unauthenticated login). Now, for every
 * route at once (server/http/hostile-input.ts): an id path param past the database's integer is a 404, an id in a
 * query or body past it a 422 naming the field, a NUL anywhere a translated 422 naming the field, a body nested past
 * the limit a 422; nothing is changed. The same answers on SQLite.
 */
const ID_ROUTES = [
  '/api/data/kfb/item/{id}', '/api/system_management/users/item/{id}', '/api/pathology/item/{id}', '/api/jobs/slide/{id}',
  '/api/slide/annotations/{id}', '/api/meetings/{id}', '/api/system_management/users/detail/{id}', '/api/data/kfb/thumb/{id}',
];
const PAST = ['2147483648', '9223372036854775808', '99999999999999999999', '-2147483649'];

describe.each(databases)('hostile ids and NUL, on every route [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  let registrar: string;
  beforeAll(async () => {
    h = await startApp(kind);
    [admin, registrar] = await Promise.all([tokenFor(h.app, 'admin'), tokenFor(h.app, 'registrar')]);
  });
  afterAll(async () => h?.close());

  it('answers an id path param past the database integer with the translated 404, in either language', async () => {
    const wrong: string[] = [];
    for (const route of ID_ROUTES) {
      for (const id of PAST) {
        for (const lang of ['zh-CN', 'en-US'] as const) {
          const res = await call(h.app, 'GET', route.replace('{id}', id), { token: admin, lang });
          if (res.statusCode !== 404 || res.json().message !== translate(lang, 'error.not_found')) wrong.push(`${route} ${id} ${lang}: ${res.statusCode} ${res.body}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    // An id that can be one still reaches the route.
    expect((await call(h.app, 'GET', '/api/system_management/users/item/1', { token: admin })).statusCode).toBe(200);
  });

  it('refuses ids past the database integer in bodies with a 422 naming the field, deleting nothing', async () => {
    const users = await h.db.selectFrom('users').select('id').execute();
    for (const ids of [[2 ** 31], [1, 2 ** 53]]) {
      const res = await call(h.app, 'DELETE', '/api/system_management/users/destroy', { token: admin, lang: 'en-US', payload: { ids } });
      expect(res.statusCode, res.body).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual([`ids.${ids.length - 1}`]);
    }
    const send = await call(h.app, 'POST', '/api/messages/send', { token: admin, payload: { user_ids: [2 ** 31], title: 't', content: 'c' } });
    expect(send.statusCode, send.body).toBe(422);
    expect(send.json().errors['user_ids.0']).toEqual(expect.any(Array));
    expect(await h.db.selectFrom('users').select('id').execute()).toEqual(users);
  });

  it('refuses a NUL in the unauthenticated login with a translated 422 naming the field', async () => {
    for (const lang of ['zh-CN', 'en-US'] as const) {
      const sealed = await seal(h.app, 'dsms-admin');
      const res = await call(h.app, 'POST', '/api/auth/login', { lang, payload: { username: 'admin\u0000', ...sealed } });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toEqual({
        message: translate(lang, 'error.nul_character', { field: 'username' }),
        errors: { username: [translate(lang, 'error.nul_character', { field: 'username' })] },
      });
    }
    expect(translate('en-US', 'error.nul_character', { field: 'username' })).toBe('username holds a NUL character (\\0), which is not accepted');
  });

  it('refuses a NUL in messages, meetings, the profile, rule overrides and registration, and stores nothing', async () => {
    const registrarId = await userId(h.db, 'registrar');
    const before = {
      messages: (await h.db.selectFrom('messages').select('id').execute()).length,
      meetings: (await h.db.selectFrom('meetings').select('id').execute()).length,
      cases: (await h.db.selectFrom('cases').select('id').execute()).length,
      profile: await h.db.selectFrom('users').select(['realname', 'email']).where('name', '=', 'admin').executeTakeFirstOrThrow(),
      rules: (await call(h.app, 'GET', '/api/rules/search-operators', { token: admin })).body,
    };
    const writes: [string, 'POST' | 'PATCH' | 'PUT', string, object, string][] = [
      ['message', 'POST', '/api/messages/send', { user_ids: [registrarId], title: 'hello', content: 'a\u0000b' }, 'content'],
      ['meeting', 'POST', '/api/meetings', { name: 'Tumour board\u0000', slide_ids: [1] }, 'name'],
      ['profile', 'PATCH', '/api/account/profile', { realname: 'Ad\u0000min' }, 'realname'],
      ['rule override', 'PUT', '/api/rules/search-operators', { override: { text: ['contains\u0000'] } }, 'override.text.0'],
      ['registration', 'POST', '/api/pathology/register', { patient_name: 'Wang\u0000', case_type: 'routine' }, 'patient_name'],
    ];
    for (const [what, method, url, payload, field] of writes) {
      for (const lang of ['zh-CN', 'en-US'] as const) {
        const res = await call(h.app, method, url, { token: what === 'registration' ? registrar : admin, lang, payload });
        expect(res.statusCode, `${what}: ${res.body}`).toBe(422);
        expect(res.json().message, what).toBe(translate(lang, 'error.nul_character', { field }));
      }
    }
    expect((await h.db.selectFrom('messages').select('id').execute()).length).toBe(before.messages);
    expect((await h.db.selectFrom('meetings').select('id').execute()).length).toBe(before.meetings);
    expect((await h.db.selectFrom('cases').select('id').execute()).length).toBe(before.cases);
    expect(await h.db.selectFrom('users').select(['realname', 'email']).where('name', '=', 'admin').executeTakeFirstOrThrow()).toEqual(before.profile);
    expect((await call(h.app, 'GET', '/api/rules/search-operators', { token: admin })).body).toBe(before.rules);
  });

  it('refuses a NUL in a query or a path param, and a body nested past the limit', async () => {
    const query = await call(h.app, 'GET', '/api/meetings?status=open%00', { token: admin, lang: 'en-US' });
    expect(query.statusCode, query.body).toBe(422);
    expect(query.json().message).toBe(translate('en-US', 'error.nul_character', { field: 'status' }));
    const param = await call(h.app, 'GET', '/api/schemas/CaseRegistration%00', { token: admin, lang: 'en-US' });
    expect(param.statusCode, param.body).toBe(422);
    // As raw JSON: nested 5,000 deep, past what a recursive serializer (or reader) survives.
    const deep = `{"filter":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
    for (const lang of ['zh-CN', 'en-US'] as const) {
      const res = await h.app.inject({ method: 'POST', url: '/api/pathology/lists', payload: deep, headers: { authorization: `Bearer ${admin}`, 'user-language': lang, 'content-type': 'application/json' } });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toBe(translate(lang, 'error.too_deep', { depth: 100 }));
    }
  });
});
