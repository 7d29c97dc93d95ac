import type { Kysely } from 'kysely';

/**
 * QR login (issue 17, spec §4, §7 `ca/login`, `ca/login/check`): a waiting browser's request, approved from a
 * signed-in phone. Only hashes of the request's id and the waiting browser's secret are kept; a row is used once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('qr_logins')
    .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    // waiting → approved → used; or declined. Expiry is read from expires_at.
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(300)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('approved_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('qr_logins_expires').on('qr_logins').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('qr_logins').ifExists().execute();
}
