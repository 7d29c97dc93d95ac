import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * Hardware keys (issue 17): WebAuthn credentials a user registered from SystemAccount and signs in with. The
 * public key is stored, never a secret; the signature counter lets a cloned authenticator be noticed. Challenges
 * live in `auth_challenges` beside the password nonces (single use, short-lived, swept with them).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.createTable('webauthn_credentials')
    .addColumn('id', (pg ? 'serial' : 'integer') as 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // base64url of the authenticator's credential id (at most 1,023 bytes by the WebAuthn spec).
    .addColumn('credential_id', 'varchar(1400)', (c) => c.notNull().unique())
    // base64url of the COSE public key.
    .addColumn('public_key', 'text', (c) => c.notNull())
    // A 32-bit unsigned counter: past PostgreSQL's integer.
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    // The WebAuthn user handle given at registration (opaque, no personal data); checked again at sign-in.
    .addColumn('user_handle', 'varchar(128)', (c) => c.notNull())
    // JSON array of transports the browser reported (usb, nfc, ble, internal, hybrid).
    .addColumn('transports', 'varchar(200)', (c) => c.notNull().defaultTo('[]'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('webauthn_credentials_user').on('webauthn_credentials').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webauthn_credentials').ifExists().execute();
}
