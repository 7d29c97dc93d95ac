import type { Kysely } from 'kysely';

/**
 * Single sign-on (issue 17): one OpenID Connect provider and one messaging-app login per hospital; the pending
 * sign-ins (state, nonce and PKCE verifier, kept here rather than in the browser, single-use and expiring); and the
 * one-time codes that hand a finished sign-in to the browser (only their hash is stored, as with session tokens).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('sso_configs')
    .addColumn('hospital_id', 'integer', (c) => c.primaryKey().references('hospitals.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('label', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('issuer', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('client_id', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    // Never answered by the API: config/sso says only whether one is set.
    .addColumn('client_secret', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_claim', 'varchar(64)', (c) => c.notNull().defaultTo('preferred_username'))
    .addColumn('create_unknown', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('default_role_id', 'integer', (c) => c.references('roles.id').onDelete('set null'))
    .addColumn('im_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('im_kind', 'varchar(32)', (c) => c.notNull().defaultTo('dingtalk'))
    .addColumn('im_base_url', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('im_app_key', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('im_app_secret', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('im_user_field', 'varchar(16)', (c) => c.notNull().defaultTo('mobile'))
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createTable('sso_flows')
    .addColumn('state', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('nonce', 'varchar(64)', (c) => c.notNull())
    .addColumn('code_verifier', 'varchar(128)', (c) => c.notNull())
    .addColumn('redirect', 'varchar(500)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createTable('sso_codes')
    .addColumn('code_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sso_codes').ifExists().execute();
  await db.schema.dropTable('sso_flows').ifExists().execute();
  await db.schema.dropTable('sso_configs').ifExists().execute();
}
