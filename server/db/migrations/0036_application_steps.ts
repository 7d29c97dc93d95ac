import type { Kysely } from 'kysely';

/**
 * SlideApply's middle states (spec §4: 1 dispatched, 2 received): who sent the specimen on its way and who in the
 * lab took it in, and when. An application has no case yet, so these live on its row; registration copies them onto
 * the new case's timeline.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('case_applications').addColumn('dispatched_at', 'varchar(32)').execute();
  await db.schema.alterTable('case_applications').addColumn('dispatched_by', 'integer').execute();
  await db.schema.alterTable('case_applications').addColumn('received_at', 'varchar(32)').execute();
  await db.schema.alterTable('case_applications').addColumn('received_by', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const c of ['dispatched_at', 'dispatched_by', 'received_at', 'received_by']) await db.schema.alterTable('case_applications').dropColumn(c).execute();
}
