import type { Kysely } from 'kysely';

/**
 * The operation log's hospital (issue 27): the log shows request bodies (a file's name, a patient's name), so a reader
 * sees only the rows of their own hospitals (server/db/scoped-tables.ts). The hospital the request worked in; null
 * when nobody was signed in. Rows written before stay null: which hospital they were written in is not recorded
 * anywhere, and guessing would show them to the wrong one; administrators alone see them.
 * No foreign key: a log row outlives the hospital it names.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('operation_logs').addColumn('hospital_id', 'integer').execute();
  await db.schema.createIndex('operation_logs_hospital').on('operation_logs').columns(['hospital_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('operation_logs_hospital').ifExists().execute();
  await db.schema.alterTable('operation_logs').dropColumn('hospital_id').execute();
}
