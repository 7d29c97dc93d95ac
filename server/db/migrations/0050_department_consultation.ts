import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * Consultations (issue 32, spec §1 "consultation (remote and in-department)"): a doctor asks a colleague, or an outside
 * expert through a link, for an opinion on a case. The request's states are data of schemas/rules/consultations.json;
 * the link's token is kept only as its hash (`token_hash`), with its expiry, whether one answer closes it, and the
 * share links it opened for the case's slides.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.createTable('consultations')
    .addColumn('id', (pg ? 'serial' : 'integer') as 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('hospital_id', 'integer', (c) => c.notNull().references('hospitals.id').onDelete('cascade'))
    .addColumn('case_id', 'integer', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('pathology_number', 'varchar(64)')
    .addColumn('mode', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('requested'))
    .addColumn('consultant_id', 'integer')
    .addColumn('expert_name', 'varchar(64)')
    .addColumn('expert_unit', 'varchar(128)')
    .addColumn('question', 'varchar(2000)')
    .addColumn('opinion', 'varchar(4000)')
    .addColumn('requested_by', 'integer')
    .addColumn('answered_by', 'integer')
    .addColumn('answered_at', 'varchar(32)')
    .addColumn('withdrawn_by', 'integer')
    .addColumn('withdrawn_at', 'varchar(32)')
    .addColumn('single_use', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('token_hash', 'varchar(128)')
    .addColumn('expires_at', 'varchar(32)')
    // The share links (slide_shares ids, a JSON list) the link opened for the case's slides: ended with it.
    .addColumn('share_ids', 'varchar(2000)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('consultations_case').on('consultations').columns(['case_id']).execute();
  await db.schema.createIndex('consultations_token').on('consultations').columns(['token_hash']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('consultations').execute();
}
