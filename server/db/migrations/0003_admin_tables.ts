import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/** Labels, reagents, browser error reports and slide operation logs: the rest of the administration pages. */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const table = (name: string) =>
    db.schema.createTable(name).addColumn('id', (pg ? 'serial' : 'integer') as 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()));

  await table('labels')
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('en_name', 'varchar(255)')
    .addColumn('parent_id', 'integer', (c) => c.references('labels.id').onDelete('cascade'))
    .addColumn('color', 'varchar(32)')
    .addColumn('description', 'text')
    .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await table('reagents')
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('clone_no', 'varchar(128)')
    .addColumn('manufacturer', 'varchar(255)')
    .addColumn('specification', 'varchar(255)')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await table('error_logs')
    .addColumn('user_id', 'integer')
    .addColumn('username', 'varchar(64)')
    .addColumn('page', 'text')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('error_logs_created_at').on('error_logs').column('created_at').execute();

  await table('section_logs')
    .addColumn('slide_id', 'integer')
    .addColumn('slide_name', 'varchar(255)')
    .addColumn('case_id', 'integer')
    .addColumn('user_id', 'integer')
    .addColumn('username', 'varchar(64)')
    .addColumn('action', 'varchar(32)', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('section_logs_created_at').on('section_logs').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['section_logs', 'error_logs', 'reagents', 'labels']) await db.schema.dropTable(t).ifExists().execute();
}
