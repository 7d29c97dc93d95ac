import type { Kysely } from 'kysely';

/** A share may be sent to one user of the slide's hospital (issue 17, "a share sent to you"): who, if anyone. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('slide_shares').addColumn('recipient_id', 'integer', (c) => c.references('users.id').onDelete('set null')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('slide_shares').dropColumn('recipient_id').execute();
}
