import type { Kysely } from 'kysely';

/**
 * Uploads whose chunks live in object storage (STORAGE_URL=s3://…), so that the chunks of one file may reach any app
 * node (issue 29). `upload_chunks`: a chunk counts as present once its row exists, made only after its object was
 * written. `upload_finishes`: which process verifies and publishes the file; a claim whose heartbeat stops (its
 * process was killed) is taken over by another. Both are emptied as each upload completes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('upload_chunks')
    .addColumn('upload_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('num', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('upload_chunks_pk', ['upload_id', 'num'])
    .execute();
  await db.schema.createTable('upload_finishes')
    .addColumn('upload_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('owner', 'varchar(100)', (c) => c.notNull())
    .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('upload_finishes').ifExists().execute();
  await db.schema.dropTable('upload_chunks').ifExists().execute();
}
