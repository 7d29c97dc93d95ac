import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../server/i18n/messages.js';
import { translate, type Language } from '../../server/i18n/translate.js';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

const LANGUAGES: Language[] = ['zh-CN', 'en-US'];
const MENU = '/api/system_management/users/menu';
const SETTING = '/api/common/setting';

/** Nothing in an error body may look like a stack trace or a driver's error. */
function expectNoInternals(body: string) {
  expect(body).not.toMatch(/\bstack\b|\n\s+at |\.ts:\d+|node_modules|SqliteError|relation .* does not exist/i);
}

describe.each(databases)('envelope [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  beforeAll(async () => {
    h = await startApp(kind);
    admin = await tokenFor(h.app, 'admin');
  });
  afterAll(async () => { await h.close(); });

  describe('success', () => {
    it('wraps data as { code: 0, message: "ok", data } in JSON', async () => {
      for (const [url, token] of [['/api/auth/challenge', undefined], ['/api/system_management/users/permission', admin]] as const) {
        const res = await call(h.app, 'GET', url, { token });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(Object.keys(res.json()).sort()).toEqual(['code', 'data', 'message']);
        expect(res.json()).toMatchObject({ code: 0, message: 'ok', data: expect.any(Object) });
      }
    });

    it('GET /api/COMMITHASH answers without a token', async () => {
      const res = await call(h.app, 'GET', '/api/COMMITHASH');
      expect(res.statusCode).toBe(200);
      // The test app serves no build, so there is no hash file to read.
      expect(res.json()).toEqual({ code: 0, message: 'ok', data: 'dev' });
    });
  });

  describe('translated errors', () => {
    it('answers the same 401 in zh-CN by default and on request, and in en-US on request', async () => {
      const byDefault = await call(h.app, 'GET', MENU);
      const zh = await call(h.app, 'GET', MENU, { lang: 'zh-CN' });
      const en = await call(h.app, 'GET', MENU, { lang: 'en-US' });
      for (const res of [byDefault, zh, en]) expect(res.statusCode).toBe(401);
      expect(byDefault.json()).toEqual({ message: messages['error.unauthenticated']['zh-CN'] });
      expect(zh.json()).toEqual(byDefault.json());
      expect(en.json()).toEqual({ message: messages['error.unauthenticated']['en-US'] });
      expect(en.json().message).not.toBe(zh.json().message);
    });

    it('prefers User-Language to Accept-Language and falls back to Accept-Language', async () => {
      const english = messages['error.unauthenticated']['en-US'];
      const chinese = messages['error.unauthenticated']['zh-CN'];
      expect((await call(h.app, 'GET', MENU, { headers: { 'accept-language': 'en-GB,en;q=0.8' } })).json().message).toBe(english);
      expect((await call(h.app, 'GET', MENU, { lang: 'zh-CN', headers: { 'accept-language': 'en-US' } })).json().message).toBe(chinese);
    });

    it.each(LANGUAGES)('answers a missing field with 422 and errors keyed by field [%s]', async (lang) => {
      const res = await call(h.app, 'POST', '/api/auth/login', { lang, payload: { password: 'x', key_id: 'k' } });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        message: translate(lang, 'error.validation'),
        errors: { username: [translate(lang, 'error.field_required', { field: 'username' })] },
      });
    });

    it.each(LANGUAGES)('names every invalid field at once [%s]', async (lang) => {
      const res = await call(h.app, 'POST', '/api/auth/login', { lang, payload: { username: '', password: 'x' } });
      expect(res.statusCode).toBe(422);
      const { errors } = res.json();
      expect(Object.keys(errors).sort()).toEqual(['key_id', 'username']);
      expect(errors.key_id).toEqual([translate(lang, 'error.field_required', { field: 'key_id' })]);
      const [invalidPrefix] = translate(lang, 'error.field_invalid', { field: 'username', reason: '\u0000' }).split('\u0000');
      expect(errors.username[0].startsWith(invalidPrefix)).toBe(true);
    });

    it.each(['GET', 'POST'] as const)('answers an unknown /api path with a 404 JSON message, token or not [%s]', async (method) => {
      for (const lang of LANGUAGES) {
        const res = await call(h.app, method, '/api/no/such/thing?x=1', { lang });
        expect(res.statusCode).toBe(404);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.json()).toEqual({ message: translate(lang, 'error.route_not_found', { path: '/api/no/such/thing' }) });
      }
    });
  });

  describe('settings', () => {
    it('GET /api/common/setting returns the public settings under data.data without a token', async () => {
      const res = await call(h.app, 'GET', SETTING);
      expect(res.statusCode).toBe(200);
      const settings = res.json().data.data;
      expect(settings).toMatchObject({ lang: 'zh-CN', hospital_logo: null, dingding_login_app_id: null });
      expect(settings).not.toHaveProperty('system_config');
    });

    it('GET /api/common/setting/get returns system_config as a JSON string', async () => {
      const res = await call(h.app, 'GET', `${SETTING}/get?settings_key=system_config`, { token: admin });
      expect(res.statusCode).toBe(200);
      expect(typeof res.json().data).toBe('string');
      expect(JSON.parse(res.json().data)).toMatchObject({ network_protocol: 'http', hisport: 8001 });
    });

    it('GET /api/common/setting/get needs a token, a valid key and an existing setting', async () => {
      expect((await call(h.app, 'GET', `${SETTING}/get?settings_key=system_config`)).statusCode).toBe(401);
      const invalid = await call(h.app, 'GET', `${SETTING}/get?settings_key=${encodeURIComponent('no spaces')}`, { token: admin });
      expect(invalid.statusCode).toBe(422);
      expect(invalid.json().errors).toHaveProperty('settings_key');
      const missing = await call(h.app, 'GET', `${SETTING}/get?settings_key=nothing_here`, { token: admin, lang: 'en-US' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: translate('en-US', 'setting.not_found', { key: 'nothing_here' }) });
    });

    it('POST /api/common/setting stores a value that reads back, public or not', async () => {
      const write = (payload: object) => call(h.app, 'POST', SETTING, { token: admin, payload });
      const readOne = async (key: string) => (await call(h.app, 'GET', `${SETTING}/get?settings_key=${key}`, { token: admin })).json().data;
      const readPublic = async () => (await call(h.app, 'GET', SETTING)).json().data.data;

      // Only declared keys are stored (issue 8); whether one is public is declared, not sent.
      const created = await write({ settings_key: 'lock_screen_minutes', settings_value: 5 });
      expect(created.statusCode).toBe(200);
      expect(created.json()).toEqual({ code: 0, message: 'ok', data: { settings_key: 'lock_screen_minutes' } });
      expect(JSON.parse(await readOne('lock_screen_minutes'))).toBe(5);
      expect((await readPublic()).lock_screen_minutes).toBe(5);

      await write({ settings_key: 'lock_screen_minutes', settings_value: 0 });
      expect((await readPublic()).lock_screen_minutes).toBe(0);

      const config = JSON.stringify({ network_protocol: 'https', hisport: 9001, upload_protocol: 'http' });
      await write({ settings_key: 'system_config', settings_value: config });
      expect(await readOne('system_config')).toBe(config);
      expect(await readPublic()).not.toHaveProperty('system_config');
    });

    it('POST /api/common/setting validates system_config with the SettingOther form and changes nothing when it fails', async () => {
      const before = await call(h.app, 'GET', `${SETTING}/get?settings_key=system_config`, { token: admin });
      const bad = JSON.stringify({ network_protocol: 'gopher', hisport: 70000, upload_protocol: 'ftp' });
      const res = await call(h.app, 'POST', SETTING, { token: admin, lang: 'en-US', payload: { settings_key: 'system_config', settings_value: bad } });
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors).sort()).toEqual(['ftpuser', 'hisport', 'network_protocol']);
      expect(res.json().errors.hisport).toEqual(['HIS port must be at most 65535']);
      const after = await call(h.app, 'GET', `${SETTING}/get?settings_key=system_config`, { token: admin });
      expect(after.json().data).toBe(before.json().data);
    });

    it('POST /api/common/setting refuses a missing key and changes nothing', async () => {
      const before = (await call(h.app, 'GET', SETTING)).json().data.data;
      const res = await call(h.app, 'POST', SETTING, { token: admin, lang: 'en-US', payload: { settings_value: 'x' } });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ settings_key: [translate('en-US', 'error.field_required', { field: 'settings_key' })] });
      expect((await call(h.app, 'GET', SETTING)).json().data.data).toEqual(before);
    });
  });

  describe('failures keep internals inside', () => {
    it('answers a malformed JSON body with a translated 400', async () => {
      const res = await h.app.inject({
        method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json', 'user-language': 'en-US' }, payload: '{"username": ',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: translate('en-US', 'error.bad_request') });
      expectNoInternals(res.body);
    });

    it('answers a database failure with a translated 500 and no stack trace', async () => {
      // A real failure: the table the handler reads is briefly gone.
      await sql`ALTER TABLE settings RENAME TO settings_away`.execute(h.db);
      try {
        for (const lang of LANGUAGES) {
          const res = await call(h.app, 'GET', SETTING, { lang });
          expect(res.statusCode).toBe(500);
          expect(res.json()).toEqual({ message: translate(lang, 'error.internal') });
          expectNoInternals(res.body);
        }
      } finally {
        await sql`ALTER TABLE settings_away RENAME TO settings`.execute(h.db);
      }
      expect((await call(h.app, 'GET', SETTING)).statusCode).toBe(200);
    });
  });
});
