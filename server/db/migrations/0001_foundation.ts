import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/** Accounts, hospitals, roles, menus, settings, auth and the two logs: what every later module builds on. */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = pg ? 'serial' : 'integer';
  const table = (name: string) =>
    db.schema.createTable(name).addColumn('id', id as 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()));

  await table('hospitals')
    .addColumn('code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('en_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('logo', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await table('users')
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('realname', 'varchar(255)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('email', 'varchar(255)')
    .addColumn('phone', 'varchar(64)')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('locked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'varchar(32)')
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('login_locked_until', 'varchar(32)')
    .addColumn('extra', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await table('roles')
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('identification', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('extra', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema.createTable('user_roles')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_id'])
    .execute();

  await db.schema.createTable('user_hospitals')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('hospital_id', 'integer', (c) => c.notNull().references('hospitals.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_hospitals_pk', ['user_id', 'hospital_id'])
    .execute();

  await table('permissions')
    .addColumn('code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('description', 'varchar(255)', (c) => c.notNull())
    .addColumn('en_description', 'varchar(255)', (c) => c.notNull())
    .addColumn('module', 'varchar(64)', (c) => c.notNull())
    .addColumn('api_path', 'varchar(255)')
    .execute();

  await table('menus')
    .addColumn('parent_id', 'integer', (c) => c.references('menus.id').onDelete('cascade'))
    .addColumn('uri', 'varchar(255)', (c) => c.notNull())
    .addColumn('alias', 'varchar(64)', (c) => c.notNull())
    .addColumn('route_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('en_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('is_show', 'varchar(1)', (c) => c.notNull().defaultTo('1'))
    .addColumn('icon', 'varchar(64)')
    .addColumn('external_link', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active_menu', 'varchar(255)')
    .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema.createTable('role_menus')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('menu_id', 'integer', (c) => c.notNull().references('menus.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('role_menus_pk', ['role_id', 'menu_id'])
    .execute();

  await db.schema.createTable('settings')
    .addColumn('key', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema.createTable('auth_keys')
    .addColumn('key_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema.createTable('auth_challenges')
    .addColumn('nonce', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('key_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .execute();

  await db.schema.createTable('auth_tokens')
    .addColumn('token_hash', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('hospital_id', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .execute();

  await table('login_logs')
    .addColumn('user_id', 'integer')
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('reason', 'varchar(64)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_logs_created_at').on('login_logs').column('created_at').execute();

  await table('operation_logs')
    .addColumn('user_id', 'integer')
    .addColumn('username', 'varchar(64)')
    .addColumn('method', 'varchar(8)', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('route', 'text')
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('payload', 'text')
    .addColumn('ip', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('operation_logs_created_at').on('operation_logs').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['operation_logs', 'login_logs', 'auth_tokens', 'auth_challenges', 'auth_keys', 'settings', 'role_menus',
    'menus', 'permissions', 'user_hospitals', 'user_roles', 'roles', 'users', 'hospitals']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
