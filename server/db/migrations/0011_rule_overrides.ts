import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

const COLUMNS = ['alias', 'hospital_id', 'version', 'override', 'note', 'created_by', 'created_at'];

/**
 * Rule sets (schemas/rules) are overridden per hospital through the same versioned store as page
 * schemas: the store's rows get a `kind` ('page' or 'rule'), and versions count per kind, name and
 * hospital. SQLite cannot change a table's unique constraint in place, so the table is rebuilt with
 * its rows (all of them pages) copied over in their order; nothing an administrator saved is lost.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await rebuild(db, true);
}

/** Back to pages only: rule overrides are dropped with the column that told them apart. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('page_schema_versions').where('kind', '<>', 'page').execute();
  await rebuild(db, false);
}

async function rebuild(db: Kysely<any>, withKind: boolean): Promise<void> {
  const pg = isPostgres(db);
  let table = db.schema.createTable('page_schema_versions_next')
    .addColumn('id', (pg ? 'serial' : 'integer') as 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()));
  if (withKind) table = table.addColumn('kind', 'varchar(16)', (c) => c.notNull().defaultTo('page'));
  await table
    .addColumn('alias', 'varchar(64)', (c) => c.notNull())
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('override', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_by', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint(withKind ? 'schema_versions_kind_unique' : 'page_schema_versions_unique', (withKind ? ['kind', 'alias', 'hospital_id', 'version'] : ['alias', 'hospital_id', 'version']) as never)
    .execute();
  await db.insertInto('page_schema_versions_next').columns(COLUMNS)
    .expression(db.selectFrom('page_schema_versions').select(COLUMNS).orderBy('id'))
    .execute();
  await db.schema.dropTable('page_schema_versions').execute();
  await db.schema.alterTable('page_schema_versions_next').renameTo('page_schema_versions').execute();
}
