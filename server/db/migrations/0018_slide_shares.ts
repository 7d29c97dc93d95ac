import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * Slide share links (issue 12, spec §6, §9): a secret token (stored as its SHA-256 only) that opens one slide at
 * /share/view until it expires or is revoked, showing only what its permissions allow.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.createTable('slide_shares')
    .addColumn('id', (pg ? 'serial' : 'integer') as 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('slide_id', 'integer', (c) => c.notNull().references('slides.id').onDelete('cascade'))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.notNull())
    // JSON { diagnosis, remark, labels, annotation, need_login } (src/core/sharePermissions.ts).
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('slide_shares_creator').on('slide_shares').columns(['created_by', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('slide_shares').ifExists().execute();
}
