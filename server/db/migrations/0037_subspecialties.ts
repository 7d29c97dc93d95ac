import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * Subspecialty directories (spec §6: "subspecialty directory permissions attach to users"):
 * - `subspecialties`: each hospital's own dictionary of directories (Breast, Gastrointestinal, …), ranked;
 * - `user_subspecialties`: the directories a user may work in (none: all of them);
 * - `cases.subspecialty_id`: the directory a case is filed under (null: visible to everyone who sees the hospital).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.createTable('subspecialties')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('en_name', 'varchar(255)')
    .addColumn('code', 'varchar(64)')
    .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  // A name once per hospital: the database refuses a second one even when two saves race.
  await db.schema.createIndex('subspecialties_hospital_name').on('subspecialties').columns(['hospital_id', 'name']).unique().execute();
  await db.schema.createTable('user_subspecialties')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('subspecialty_id', 'integer', (c) => c.notNull().references('subspecialties.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_subspecialties_pk', ['user_id', 'subspecialty_id'])
    .execute();
  await db.schema.createIndex('user_subspecialties_dir').on('user_subspecialties').column('subspecialty_id').execute();
  await db.schema.alterTable('cases').addColumn('subspecialty_id', 'integer').execute();
  await db.schema.createIndex('cases_hospital_subspecialty').on('cases').columns(['hospital_id', 'subspecialty_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('cases_hospital_subspecialty').ifExists().execute();
  await db.schema.alterTable('cases').dropColumn('subspecialty_id').execute();
  await db.schema.dropTable('user_subspecialties').ifExists().execute();
  await db.schema.dropTable('subspecialties').ifExists().execute();
}
