import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * Secrets leave the settings table (issue 8 item 1): the general settings API could read any row there,
 * including the slide download key. Signing keys get a table of their own, which no API reads, and rotate
 * (several per purpose, by creation time). The old key is deleted: links it signed die at once, at most
 * two minutes of them.
 *
 * Attachments (item 15) are recorded with who stored them, so each user's quota is a sum, not a walk of the disk.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.createTable('signing_keys')
    .addColumn('key_id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
    .addColumn('secret', 'varchar(128)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('signing_keys_purpose').on('signing_keys').columns(['purpose', 'created_at']).execute();
  await db.deleteFrom('settings').where('key', '=', 'slide_download_key').execute();

  await db.schema.createTable('attachments')
    .addColumn('id', (pg ? 'serial' : 'integer') as 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('hospital_id', 'integer')
    .addColumn('path', 'varchar(1024)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attachments_user').on('attachments').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('attachments').ifExists().execute();
  await db.schema.dropTable('signing_keys').ifExists().execute();
}
