import type { LogEvent } from 'kysely';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageKey } from '../../server/i18n/messages.js';
import { translate, type Params } from '../../server/i18n/translate.js';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';
import { loadConfig } from '../../server/config.js';

/** Issue 8, items 8, 10 and 16: what the generic resource API refuses before it costs the server anything. */
const CASES = '/api/pathology';
const USERS = '/api/system_management/users';
const t = (lang: 'zh-CN' | 'en-US', key: MessageKey, params?: Params) => translate(lang, key, params);
const long = (n: number, seed = 'k') => seed.repeat(n).slice(0, n);

describe.each(databases)('security of the schema resource layer [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  const statements: string[] = [];
  beforeAll(async () => {
    h = await startApp(kind, { log: (e: LogEvent) => { statements.push(e.query.sql); } });
    admin = await tokenFor(h.app, 'admin');
  });
  afterAll(async () => { await h.close(); });

  /** Sends a request and answers it with every statement it ran on `table` (session lookups touch other tables). */
  async function run(table: string, send: () => ReturnType<typeof call>) {
    statements.length = 0;
    const res = await send();
    return { res, ran: statements.filter((s) => s.includes(`"${table}"`)) };
  }

  /** The same refusal in both languages, with nothing run against the table. */
  async function expectRefusedUnrun(table: string, method: 'GET' | 'POST', url: string, payload: object | undefined, key: MessageKey, params: Params) {
    for (const lang of ['zh-CN', 'en-US'] as const) {
      const { res, ran } = await run(table, () => call(h.app, method, url, { token: admin, lang, payload }));
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toBe(t(lang, key, params));
      expect(ran).toEqual([]);
    }
  }

  describe('item 8: one list request cannot stall the server', () => {
    it('refuses 20 tabs × 200 long like conditions (the issue\'s payload) with a translated 422 naming the limit, running nothing', async () => {
      const tabs = Array.from({ length: 20 }, (_, i) => ({
        key: `t${i}`,
        filter: Array.from({ length: 200 }, (_, j) => ({ column: 'patient_name', operator: 'like', value: long(150, `${i}-${j}-`), condition: 'or' })),
      }));
      await expectRefusedUnrun('cases', 'POST', `${CASES}/count`, { tabs }, 'resource.too_many_conditions', { limit: 50 });
    });

    it('refuses 200 × in with 1,000 values (a 500 "too many SQL variables" before) with a translated 422, running nothing', async () => {
      const filter = Array.from({ length: 200 }, () => ({ column: 'id', operator: 'in', value: Array.from({ length: 1000 }, (_, i) => i + 1) }));
      await expectRefusedUnrun('cases', 'POST', `${CASES}/lists`, { filter }, 'resource.too_many_conditions', { limit: 50 });
    });

    it('bounds values per in, bound values in all and characters per value, each refusal naming its limit', async () => {
      const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
      await expectRefusedUnrun('cases', 'POST', `${CASES}/lists`, { filter: [{ column: 'id', operator: 'in', value: ids(501) }] },
        'resource.too_many_values', { column: 'id', limit: 500 });
      await expectRefusedUnrun('cases', 'POST', `${CASES}/lists`, { filter: Array.from({ length: 5 }, () => ({ column: 'id', operator: 'not in', value: ids(450) })) },
        'resource.too_many_parameters', { count: 2250, limit: 2000 });
      await expectRefusedUnrun('cases', 'POST', `${CASES}/lists`, { filter: [{ column: 'patient_name', operator: 'like', value: long(201) }] },
        'resource.value_too_long', { column: 'patient_name', limit: 200 });
      await expectRefusedUnrun('cases', 'GET', `${CASES}/lists?search=${long(201)}`, undefined, 'resource.value_too_long', { column: 'search', limit: 200 });
    });

    it('still answers what the pages send: a search, filters, an in of 500 values, and a count of several tabs', async () => {
      const filter = [
        { column: 'patient_name', operator: 'like', value: '王' },
        { column: 'registration_at', operator: 'between', value: ['2020-01-01 00:00:00', '2099-12-31 23:59:59'] },
        { column: 'id', operator: 'in', value: Array.from({ length: 500 }, (_, i) => i + 1), condition: 'and' },
      ];
      const list = await call(h.app, 'POST', `${CASES}/lists`, { token: admin, payload: { filter, search: long(200), page_size: 20 } });
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json().data).toMatchObject({ data: expect.any(Array), total: expect.any(Number) });
      const tabs = ['routine', 'frozen', 'cell', 'outside'].map((v) => ({ key: v, filter: [{ column: 'case_type', operator: '=', value: v }] }));
      const count = await call(h.app, 'POST', `${CASES}/count`, { token: admin, payload: { tabs, search: 'a' } });
      expect(count.statusCode, count.body).toBe(200);
      expect(Object.keys(count.json().data)).toEqual(['routine', 'frozen', 'cell', 'outside']);
    });
  });

  describe('item 10: only fields the contract declares are stored, and text is bounded', () => {
    const userIdOf = async (name: string) => (await h.db.selectFrom('users').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    const extraOf = async (id: number) => JSON.parse((await h.db.selectFrom('users').select('extra').where('id', '=', id).executeTakeFirstOrThrow()).extra ?? '{}');

    it('refuses a field the form does not declare, naming it, and stores nothing of the write', async () => {
      const id = await userIdOf('qc');
      const before = await h.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      for (const lang of ['zh-CN', 'en-US'] as const) {
        const res = await call(h.app, 'PATCH', `${USERS}/update/${id}`, { token: admin, lang, payload: { realname: 'Changed', favourite_stain: 'HE' } });
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().errors).toEqual({ favourite_stain: [t(lang, 'validation.unknown_field', { field: 'favourite_stain' })] });
      }
      expect(await h.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow()).toEqual(before);

      const created = await call(h.app, 'POST', `${CASES}/store`, { token: admin, payload: { pathology_number: 'SEC-10-1', case_type: 'routine', shoe_size: 44 } });
      expect(created.statusCode, created.body).toBe(422);
      expect(Object.keys(created.json().errors)).toEqual(['shoe_size']);
      expect(await h.db.selectFrom('cases').select('id').where('pathology_number', '=', 'SEC-10-1').execute()).toEqual([]);
    });

    it('refuses a 9 MB value, in an unknown field or in a declared one without a maxLength, and stores a declared field within its limits', async () => {
      // A hospital adds a field with no maxLength of its own: the default bound (2,000 characters) holds it.
      const override = { fields: { referral_note: { type: 'string' } } };
      expect((await call(h.app, 'PUT', '/api/contracts/users', { token: admin, payload: { override, note: 'referral' } })).statusCode).toBe(200);
      const id = await userIdOf('auditor');
      const nineMb = long(9 * 1024 * 1024, 'x');
      for (const field of ['notes', 'referral_note']) {
        const res = await call(h.app, 'PATCH', `${USERS}/update/${id}`, { token: admin, lang: 'en-US', payload: { [field]: nineMb } });
        expect(res.statusCode).toBe(422);
        expect(Object.keys(res.json().errors ?? {})).toEqual([field]);
      }
      const tooLong = await call(h.app, 'PATCH', `${USERS}/update/${id}`, { token: admin, lang: 'en-US', payload: { referral_note: long(2001) } });
      expect(tooLong.json().errors).toEqual({ referral_note: [t('en-US', 'validation.maxLength', { field: 'referral_note', limit: 2000 })] });
      expect(await extraOf(id)).toEqual({});

      const stored = await call(h.app, 'PATCH', `${USERS}/update/${id}`, { token: admin, payload: { referral_note: long(2000, '转') } });
      expect(stored.statusCode, stored.body).toBe(200);
      expect(stored.json().data.referral_note).toBe(long(2000, '转'));
      expect(await extraOf(id)).toEqual({ referral_note: long(2000, '转') });
    });

    it('bounds a whole row, whatever its fields declare', async () => {
      const id = await userIdOf('auditor');
      const res = await call(h.app, 'PATCH', `${USERS}/update/${id}`, { token: admin, lang: 'en-US', payload: { role_ids: Array.from({ length: 40_000 }, (_, i) => i + 1) } });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toMatch(/^The record is too large: \d+ characters, at most 65536$/);
    });
  });

  describe('item 16: every operator on every column type answers 200 or 422, never a database error', () => {
    it('answers the fuzz check\'s payload (between "%" and like true on an integer id) with a translated 422', async () => {
      const filter = '[{"column":"id","operator":"between","value":"%"},{"column":"id","operator":"like","value":true}]';
      for (const lang of ['zh-CN', 'en-US'] as const) {
        const res = await call(h.app, 'GET', `${USERS}/lists?filter=${encodeURIComponent(filter)}`, { token: admin, lang });
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().message).toBe(t(lang, 'resource.bad_value', { column: 'id', expected: translate(lang, 'expected.string') }));
      }
    });

    it('matches numbers and dates by their text with like, and out-of-range integers and NUL alike on both databases', async () => {
      const list = (filter: object[]) => call(h.app, 'POST', `${USERS}/lists`, { token: admin, payload: { filter } });
      const admins = await list([{ column: 'id', operator: 'like', value: '1' }, { column: 'name', operator: '=', value: 'admin' }]);
      expect(admins.statusCode, admins.body).toBe(200);
      expect(admins.json().data.data.map((u: { name: string }) => u.name)).toEqual(['admin']);
      expect((await list([{ column: 'created_at', operator: 'like', value: '20' }])).statusCode).toBe(200);
      expect((await list([{ column: 'role_id', operator: 'like', value: '1' }])).statusCode).toBe(200);
      const huge = await list([{ column: 'id', operator: 'in', value: [99_999_999_999, 1] }, { column: 'status', operator: '<', value: 99_999_999_999 }]);
      expect(huge.statusCode, huge.body).toBe(200);
      expect((await list([{ column: 'role_id', operator: '=', value: 99_999_999_999 }])).json().data.total).toBe(0);
      expect((await list([{ column: 'name', operator: '=', value: 'a\u0000b' }])).statusCode).toBe(422);
    });
  });
});

/**
 * PostgreSQL only: SQLite's statements run synchronously in the process and are bounded by the limits
 * above instead. A lock held elsewhere stands in for a costly query: the list cannot finish while it is held.
 */
describe.runIf(databases.includes('postgres'))('item 8: PostgreSQL cancels a statement at DB_STATEMENT_TIMEOUT_MS [postgres]', () => {
  let h: Harness;
  let admin: string;
  beforeAll(async () => {
    // The setting as the server reads it (config.ts), handed to the connection as main.ts hands it.
    h = await startApp('postgres', { statementTimeoutMs: loadConfig({ DB_STATEMENT_TIMEOUT_MS: '1500' }).dbStatementTimeoutMs });
    admin = await tokenFor(h.app, 'admin');
  });
  afterAll(async () => { await h?.close(); });

  it('answers a translated 503 instead of waiting, and the next list is served', async () => {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(h.db);
    const locker = new pg.Client({ connectionString: h.url });
    await locker.connect();
    // Without a timeout the list would wait for the lock; the locker lets go after 20 s so such a run fails, not hangs.
    let release: NodeJS.Timeout | undefined;
    try {
      await locker.query('BEGIN');
      await locker.query(`LOCK TABLE "${rows[0].schema}".cases IN ACCESS EXCLUSIVE MODE`);
      release = setTimeout(() => { locker.query('ROLLBACK').catch(() => {}); }, 20_000);
      for (const lang of ['zh-CN', 'en-US'] as const) {
        const res = await call(h.app, 'GET', `${CASES}/lists`, { token: admin, lang });
        expect(res.statusCode, res.body).toBe(503);
        expect(res.json()).toEqual({ message: t(lang, 'resource.query_timeout') });
      }
    } finally {
      clearTimeout(release);
      await locker.query('ROLLBACK').catch(() => {});
      await locker.end();
    }
    expect((await call(h.app, 'GET', `${CASES}/lists`, { token: admin })).statusCode).toBe(200);
  }, 60_000);
});
