import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/** Hospital overrides of page schemas (versioned, reversible) and per-user column preferences. */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.createTable('page_schema_versions')
    .addColumn('id', (pg ? 'serial' : 'integer') as 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('alias', 'varchar(64)', (c) => c.notNull())
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('override', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_by', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('page_schema_versions_unique', ['alias', 'hospital_id', 'version'])
    .execute();

  await db.schema.createTable('column_preferences')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('route_key', 'varchar(128)', (c) => c.notNull())
    .addColumn('columns', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('column_preferences_pk', ['user_id', 'route_key'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('column_preferences').ifExists().execute();
  await db.schema.dropTable('page_schema_versions').ifExists().execute();
}
