import type { Kysely } from 'kysely';

/**
 * Notices with a type (spec §3 "notices (type, level, target)"; issue 17): what a message is about, from the enum
 * `notice_type` (schemas/enums/common.json). Rows written before it: system messages were the workflow's (a case
 * assigned, a report returned), everything else general.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('type', 'varchar(16)', (c) => c.notNull().defaultTo('general')).execute();
  await db.updateTable('messages').set({ type: 'workflow' }).where('kind', '=', 'system').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('type').execute();
}
