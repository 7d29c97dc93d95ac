import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../server/db/connect.js';
import { migrateUpTo } from '../../server/db/migrate.js';
import { loadRuleSets } from '../../server/modules/schemas/repository.js';
import { RuleStore } from '../../server/modules/schemas/store.js';
import { caseStatusKey } from '../../src/core/rulesCaseStatus.js';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/**
 * Rule sets (schemas/rules) through the layered, versioned store of the page schemas: what every user
 * reads, what a schema editor may save for their hospital (checked like a page), rollback, and the
 * server evaluating the hospital's rules where the browser does (a setting's form). Both databases.
 */
describe.each(databases)('rule sets as data [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  let registrar: string;
  beforeAll(async () => {
    h = await startApp(kind);
    [admin, registrar] = await Promise.all([tokenFor(h.app, 'admin'), tokenFor(h.app, 'registrar')]);
  });
  afterAll(async () => { await h.close(); });

  type Layered = { alias: string; version: number; schema: { name: string; rules: Record<string, unknown> } };
  const rules = async (token: string) => (await call(h.app, 'GET', '/api/rules', { token })).json().data as Layered[];
  const operators = async (token: string, type: string) => (await rules(token)).find((r) => r.alias === 'search-operators')!.schema.rules[type];
  const put = (override: object, token = admin, lang = 'en-US') => call(h.app, 'PUT', '/api/rules/search-operators', { token, lang, payload: { override } });

  it('every signed-in user reads the hospital\'s rule sets; the base is version 0', async () => {
    const sets = await rules(registrar);
    expect(sets.map((s) => s.alias)).toEqual(expect.arrayContaining(['case-status', 'forms', 'search-operators']));
    expect(sets.every((s) => s.version === 0)).toBe(true);
    expect(await operators(registrar, 'input')).toEqual(['=', '!=', 'like', 'not like', 'in', 'not in']);
    expect((await call(h.app, 'GET', '/api/rules')).statusCode).toBe(401);
    const one = (await call(h.app, 'GET', '/api/rules/forms', { token: registrar })).json().data;
    expect(one).toMatchObject({ alias: 'forms', version: 0, schema: { name: 'forms' } });
  });

  it('a schema editor restricts the operators for their hospital as a new version; others see it at once', async () => {
    const saved = await put({ rules: { input: ['like', 'not like'] } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ alias: 'search-operators', version: 1 });
    expect(await operators(registrar, 'input')).toEqual(['like', 'not like']);
    expect(await operators(registrar, 'select')).toEqual(['=', '!=', 'in', 'not in']);
  });

  it('refuses, translated and by path, what the server could not run or the evaluator would not accept', async () => {
    const regex = await put({ rules: { boolean: ['=', 'regex'] } });
    expect(regex.statusCode).toBe(422);
    expect(regex.json().message).toMatch(/^The rule set is not valid: \/rules\/boolean not an operator the server runs: "regex"/);
    expect(Object.keys(regex.json().errors)).toEqual(['/rules/boolean']);

    const zh = await put({ rules: { boolean: { log: 'x' } } }, admin, 'zh-CN');
    expect(zh.statusCode).toBe(422);
    expect(zh.json().message).toBe('规则集不符合规范：/rules/boolean/log unknown operation "log"');

    expect((await put({ name: 'other' })).json().errors).toHaveProperty('/name');
    expect((await put({ rules: { input: { rule: 'forms.nothing' } } })).json().errors).toEqual({ '/rules/input': [expect.stringContaining('rule forms.nothing does not exist')] });
    expect((await put({ rules: { input: { rule: 'search-operators.input' } } })).json().errors['/rules/input'][0]).toContain('refers to itself');
    expect((await put({ description: 'x'.repeat(600 * 1024) })).json().message).toBe('The override is too large (at most 524288 bytes)');
    // Nothing refused became a version.
    expect((await call(h.app, 'GET', '/api/rules/search-operators', { token: admin })).json().data.version).toBe(1);
  });

  it('lets only schema editors write; an unknown set is a translated 404', async () => {
    expect((await put({ rules: { input: ['='] } }, registrar)).statusCode).toBe(403);
    expect((await call(h.app, 'GET', '/api/rules/search-operators/versions', { token: registrar })).statusCode).toBe(403);
    expect((await call(h.app, 'POST', '/api/rules/search-operators/rollback', { token: registrar, payload: { version: 0 } })).statusCode).toBe(403);
    const missing = await call(h.app, 'GET', '/api/rules/no-such-set/base', { token: admin, lang: 'en-US' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Rule set no-such-set does not exist');
    expect((await call(h.app, 'GET', '/api/rules/Bad_Name', { token: admin })).statusCode).toBe(422);
  });

  it('lists versions and rolls back to the base and forward again, each a new version', async () => {
    const versions = (await call(h.app, 'GET', '/api/rules/search-operators/versions', { token: admin })).json().data;
    expect(versions.map((v: { version: number; override: object }) => [v.version, v.override])).toEqual([[1, { rules: { input: ['like', 'not like'] } }]]);
    const back = await call(h.app, 'POST', '/api/rules/search-operators/rollback', { token: admin, payload: { version: 0 } });
    expect(back.json().data.version).toBe(2);
    expect(await operators(registrar, 'input')).toEqual(['=', '!=', 'like', 'not like', 'in', 'not in']);
    const forward = await call(h.app, 'POST', '/api/rules/search-operators/rollback', { token: admin, payload: { version: 1 } });
    expect(forward.json().data.version).toBe(3);
    expect(await operators(registrar, 'input')).toEqual(['like', 'not like']);
    expect((await call(h.app, 'POST', '/api/rules/search-operators/rollback', { token: admin, payload: { version: 99 } })).statusCode).toBe(404);
  });

  it('keeps page and rule versions apart in the one store, and saves sent at the same moment each get a version', async () => {
    const page = await call(h.app, 'PUT', '/api/schemas/SystemUser', { token: admin, payload: { override: { title: { 'zh-CN': '账号', 'en-US': 'Accounts' } } } });
    expect(page.json().data.version).toBe(1);
    const saves = await Promise.all(['=', '!='].map((op) => put({ rules: { boolean: [op] } })));
    expect(saves.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(saves.map((r) => r.json().data.version).sort()).toEqual([4, 5]);
    expect((await call(h.app, 'GET', '/api/schemas/SystemUser', { token: admin })).json().data.version).toBe(1);
  });

  it('the server evaluates the hospital\'s rules where the form does: a setting\'s ftp fields follow forms.upload-via-ftp', async () => {
    const save = (value: object) => call(h.app, 'POST', '/api/common/setting', { token: admin, lang: 'en-US', payload: { settings_key: 'system_config', settings_value: value } });
    const config = { network_protocol: 'http', hisport: 8001, upload_protocol: 'ftp', upload_port: 21 };
    // Base rule: with ftp the ftp user is required.
    const required = await save(config);
    expect(required.statusCode).toBe(422);
    expect(Object.keys(required.json().errors)).toContain('ftpuser');
    // This hospital never uses the ftp fields: the rule says so, and the same write is accepted.
    const override = await call(h.app, 'PUT', '/api/rules/forms', { token: admin, payload: { override: { rules: { 'upload-via-ftp': false } } } });
    expect(override.statusCode, override.body).toBe(200);
    expect((await save(config)).statusCode).toBe(200);
    // Rolled back, the base rule holds again.
    await call(h.app, 'POST', '/api/rules/forms/rollback', { token: admin, payload: { version: 0 } });
    expect((await save(config)).statusCode).toBe(422);
  });

  it('the server evaluates the case status with the hospital\'s case-status rule, the one evaluator of src/core', async () => {
    const hospital = (await h.db.selectFrom('hospitals').select('id').where('code', '=', 'H001').executeTakeFirstOrThrow()).id;
    const store = new RuleStore(h.db, loadRuleSets(), () => undefined);
    const row = { archive_status: 'no', expedite_status: 1, sub_phase: 'to_sign', main_phase: 'diagnosis' };
    expect(caseStatusKey(row, await store.resolverFor(hospital))).toBe('to_sign');
    const toy = { rules: { status: { if: [{ var: 'expedite_status' }, 'urgent', { rule: 'case-status.fallback' }] }, fallback: { var: 'main_phase' } } };
    expect((await call(h.app, 'PUT', '/api/rules/case-status', { token: admin, payload: { override: toy } })).statusCode).toBe(200);
    expect(caseStatusKey(row, await store.resolverFor(hospital))).toBe('urgent');
    expect(caseStatusKey({ ...row, expedite_status: 0 }, await store.resolverFor(hospital))).toBe('diagnosis');
  });

  it('overrides belong to the hospital that saved them', async () => {
    const hospitals = await h.db.selectFrom('hospitals').select(['id', 'code']).orderBy('id').execute();
    const branch = hospitals.find((x) => x.code === 'H002')!.id;
    expect(await operators(admin, 'boolean')).toHaveLength(1);
    expect((await call(h.app, 'POST', '/api/auth/switch_hospital', { token: admin, payload: { hospital_id: branch } })).statusCode).toBe(200);
    expect(await operators(admin, 'boolean')).toEqual(['=', '!=']);
    expect((await call(h.app, 'GET', '/api/rules/search-operators/versions', { token: admin })).json().data).toEqual([]);
  });
});

/** 0011 gives the store a kind: page overrides saved before it stay, and stay pages. */
describe.each(databases)('rule store migration [%s]', (kind) => {
  let db: Db;
  let schema: string | undefined;
  afterAll(async () => {
    if (schema) await sql.raw(`DROP SCHEMA ${schema} CASCADE`).execute(db);
    await db.destroy();
  });

  it('0011 keeps every page override with its version and lets a rule take the same name and version', async () => {
    if (kind === 'postgres') {
      schema = `t_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
      db = connect({ databaseUrl: process.env.TEST_DATABASE_URL, pgSchema: schema });
    } else db = connect({ sqliteFile: ':memory:' });
    await migrateUpTo(db, '0010_signing_keys', schema);
    const row = (version: number) => ({ alias: 'SystemUser', hospital_id: 1, version, override: `{"v":${version}}`, note: null, created_by: 'admin', created_at: '2026-01-01T00:00:00Z' });
    await (db as Db).insertInto('page_schema_versions').values([row(1), row(2)] as never).execute();
    await migrateUpTo(db, undefined, schema);
    const rows = await db.selectFrom('page_schema_versions').select(['kind', 'alias', 'version', 'override']).orderBy('version').execute();
    expect(rows).toEqual([
      { kind: 'page', alias: 'SystemUser', version: 1, override: '{"v":1}' },
      { kind: 'page', alias: 'SystemUser', version: 2, override: '{"v":2}' },
    ]);
    await db.insertInto('page_schema_versions').values({ ...row(1), kind: 'rule' }).execute();
    await db.insertInto('page_schema_versions').values(row(3)).execute();
    await expect(db.insertInto('page_schema_versions').values(row(3)).execute()).rejects.toThrow();
    const ids = await db.selectFrom('page_schema_versions').select('id').execute();
    expect(new Set(ids.map((r) => r.id)).size).toBe(4);
  });
});
