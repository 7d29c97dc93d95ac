import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * Hospital areas (issue 29, spec §3: name, IP, storage path, queue names, code). `hospital_areas`: one per area of
 * a hospital group, each with its own storage location (a local directory or `s3://bucket/prefix`) and the job
 * queue(s) its slides' work runs on. `hospitals.area_id`: the area a hospital belongs to (null: the installation's
 * default storage and queue, as before). `slides.area_id`: the area a slide was stored in when it was bound, so it
 * is always read from there even if its hospital moves. `jobs.queue`: which runners may claim a job (JOB_QUEUES).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = (pg ? 'serial' : 'integer') as 'integer';
  await db.schema.createTable('hospital_areas')
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)')
    .addColumn('storage_url', 'varchar(500)', (c) => c.notNull())
    // Comma-separated; the first is the queue the area's slide jobs are put on.
    .addColumn('queue_names', 'varchar(500)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('hospitals').addColumn('area_id', 'integer').execute();
  await db.schema.alterTable('slides').addColumn('area_id', 'integer').execute();
  await db.schema.alterTable('jobs').addColumn('queue', 'varchar(64)', (c) => c.notNull().defaultTo('default')).execute();
  await db.schema.createIndex('jobs_queue_status').on('jobs').columns(['queue', 'status']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('jobs_queue_status').execute();
  await db.schema.alterTable('jobs').dropColumn('queue').execute();
  await db.schema.alterTable('slides').dropColumn('area_id').execute();
  await db.schema.alterTable('hospitals').dropColumn('area_id').execute();
  await db.schema.dropTable('hospital_areas').execute();
}
