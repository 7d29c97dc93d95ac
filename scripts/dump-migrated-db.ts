/**
 * Migrates a new database and prints every table (its columns, indexes and rows) as sorted JSON, so two versions of
 * the migrations can be compared by diffing their dumps: a refactor of the migrations must not change what they make.
 *
 *   node --import tsx scripts/dump-migrated-db.ts [postgres://…/db] > dump.json
 *
 * Without an address it uses an in-memory SQLite database; with one it creates a scratch database beside the one
 * named and drops it afterwards. Before the data-changing migrations run (0012 page language 2, 0016 role names)
 * it stores what an older release held for them: a first-language override of every base page and every shipped
 * role, so their conversions are part of the dump.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { connect, isPostgres } from '../server/db/connect.js';
import { migrateToLatest, migrateUpTo } from '../server/db/migrate.js';

const url = process.argv[2];
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** A first-language override touching every part 0012 converts: columns, search, tabs, detail and a form. */
const oldOverride = (alias: string) => ({
  list: { rowKey: 'id', columns: [{ prop: 'id', label: alias, type: 'text', fixed: 'left' }, { prop: 'group', children: [{ prop: 'name', type: 'text' }] }],
    tabs: [{ key: 't', filter: [{ column: 'id', operator: '=', value: 1 }] }] },
  search: { items: [{ name: 'id', model: 'id_code', type: 'input', status: true, show: false }] },
  detail: { sections: [{ fields: [{ prop: 'id', type: 'text' }] }] },
  form: {
    schema: { required: ['extra_no', 'id'], properties: { extra_no: { type: ['string', 'null'], maxLength: 20 }, id: { type: 'integer' }, name: { type: 'string' }, gone: null } },
    uiSchema: { extra_no: { 'ui:title': 'Extra', 'ui:widget': 'input' }, name: { 'ui:help': 'help' }, 'ui:order': ['extra_no', '*'] },
    rules: { visibleIf: { extra_no: { '==': [{ var: 'status' }, 1] }, name: { '==': [{ var: 'status' }, 1] }, id: { '==': [1, 1] } } },
    createOnly: ['extra_no'],
  },
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function storeOldData(db: Kysely<any>): Promise<void> {
  const at = '2020-01-01T00:00:00.000Z';
  const aliases = fs.readdirSync(path.resolve('schemas/pages')).filter((f) => f.endsWith('.json')).sort()
    .map((f) => (JSON.parse(fs.readFileSync(path.join('schemas/pages', f), 'utf8')) as { alias: string }).alias);
  let version = 0;
  for (const alias of aliases) {
    await db.insertInto('page_schema_versions').values({ kind: 'page', alias, hospital_id: 1, version: ++version, override: JSON.stringify(oldOverride(alias)), note: 'old', created_by: 'admin', created_at: at }).execute();
  }
  await db.insertInto('page_schema_versions').values({ kind: 'rule', alias: 'search-operators', hospital_id: 1, version: 1, override: JSON.stringify({ input: { if: [{ '==': [{ var: 'name' }, 'name'] }, { var: 'type' }] } }), note: null, created_by: 'admin', created_at: at }).execute();
  const roles = JSON.parse(fs.readFileSync(path.resolve('server/db/seed/roles.json'), 'utf8')) as { identification: string; name: string }[];
  for (const role of [...roles, { identification: 'made_by_admin', name: 'Custom' }]) {
    await db.insertInto('roles').values({ name: role.name, identification: role.identification, description: null, extra: '[]', created_at: at }).execute();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function dump(db: Kysely<any>): Promise<Record<string, unknown>> {
  const pgDb = isPostgres(db);
  const tables = pgDb
    ? (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() order by 1`.execute(db)).rows.map((r) => r.name)
    : (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by 1`.execute(db)).rows.map((r) => r.name);
  const out: Record<string, unknown> = {};
  for (const table of tables) {
    const columns = pgDb
      ? (await sql`select column_name, data_type, is_nullable, column_default from information_schema.columns where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(db)).rows
      : (await sql`select name, type, "notnull", dflt_value, pk from pragma_table_info(${table}) order by cid`.execute(db)).rows;
    const indexes = pgDb
      ? (await sql`select indexdef from pg_indexes where schemaname = current_schema() and tablename = ${table} order by indexname`.execute(db)).rows
      : (await sql`select sql from sqlite_master where tbl_name = ${table} and sql is not null order by name`.execute(db)).rows;
    const rows = (await db.selectFrom(table).selectAll().execute())
      .map((row) => JSON.stringify(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' && ISO_TIME.test(v) ? '<time>' : v instanceof Date ? '<time>' : v]))))
      .sort();
    out[table] = { columns, indexes, rows: table === 'kysely_migration' ? rows.map((r) => JSON.parse(r).name).sort() : rows };
  }
  return out;
}

async function run(): Promise<void> {
  if (!url) {
    const db = connect({ sqliteFile: ':memory:' });
    await migrateUpTo(db, '0011_rule_overrides');
    await storeOldData(db);
    await migrateToLatest(db);
    console.log(JSON.stringify(await dump(db), null, 1));
    await db.destroy();
    return;
  }
  const scratch = `dump_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${scratch}`);
  const db = connect({ databaseUrl: url.replace(/\/[^/]*$/, `/${scratch}`) });
  try {
    await migrateUpTo(db, '0011_rule_overrides');
    await storeOldData(db);
    await migrateToLatest(db);
    console.log(JSON.stringify(await dump(db), null, 1));
  } finally {
    await db.destroy();
    await admin.query(`drop database ${scratch}`);
    await admin.end();
  }
}

await run();
