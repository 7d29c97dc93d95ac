import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * The rest of issue 17's calls:
 * - `sso_sessions`: a session that came from OpenID Connect keeps the provider's id token, so logout can send the
 *   browser to the provider's end_session_endpoint with it as id_token_hint (RP-initiated logout). The one-time code
 *   carries it from the callback to sso_login_v2 (`sso_codes.id_token`).
 * - `sso_configs.im_authorize_url`: where the browser asks the messaging app for an auth code (auth/auth_code).
 * - messages that ask the clinical side for an answer (`clinical`) and the answer (messages/change-clinical).
 * - `teaching_links`: slides linked to an external teaching library (outer/jiaopei/bind).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.alterTable('sso_codes').addColumn('id_token', 'text').execute();
  await db.schema.alterTable('sso_configs').addColumn('im_authorize_url', 'varchar(500)', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.createTable('sso_sessions')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('id_token', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_sessions_expires').on('sso_sessions').column('expires_at').execute();

  await db.schema.alterTable('messages').addColumn('clinical', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // null (not asked) → received → handled; the clinician's note and when.
  await db.schema.alterTable('messages').addColumn('clinical_status', 'varchar(16)').execute();
  await db.schema.alterTable('messages').addColumn('clinical_note', 'text').execute();
  await db.schema.alterTable('messages').addColumn('clinical_at', 'varchar(32)').execute();

  await db.schema.createTable('teaching_links')
    .addColumn('id', (pg ? 'serial' : 'integer') as 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('hospital_id', 'integer', (c) => c.notNull().references('hospitals.id').onDelete('cascade'))
    .addColumn('slide_id', 'integer', (c) => c.notNull().references('slides.id').onDelete('cascade'))
    .addColumn('library_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('library_name', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('external_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('bound_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('bound_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('teaching_links_slide_library').on('teaching_links').columns(['slide_id', 'library_id']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('teaching_links').ifExists().execute();
  await db.schema.dropTable('sso_sessions').ifExists().execute();
  for (const column of ['clinical_at', 'clinical_note', 'clinical_status', 'clinical']) await db.schema.alterTable('messages').dropColumn(column).execute();
  await db.schema.alterTable('sso_configs').dropColumn('im_authorize_url').execute();
  await db.schema.alterTable('sso_codes').dropColumn('id_token').execute();
}
