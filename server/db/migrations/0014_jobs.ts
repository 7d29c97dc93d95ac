import { sql, type Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * A durable job queue in the database (conversion, later ingest, focus checks and exports). No library serves
 * both our databases: pg-boss and graphile-worker are PostgreSQL-only, BullMQ needs Redis. A job is claimed
 * by one process with a lease (`lease_owner`, `lease_until`); a lease that expires (the process was killed)
 * lets another process claim it again. `dedupe_key` keeps one live job per purpose (e.g. per slide): the partial
 * unique index covers only queued and running jobs, so a finished job does not block the next one.
 * Slides gain `progress` (0–100 while a job works on them), shown in the slide lists.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.createTable('jobs')
    .addColumn('id', (pg ? 'serial' : 'integer') as 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('dedupe_key', 'varchar(128)')
    .addColumn('hospital_id', 'integer')
    .addColumn('slide_id', 'integer')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('message', 'varchar(255)')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_after', 'varchar(32)', (c) => c.notNull())
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('lease_until', 'varchar(32)')
    .addColumn('error', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('finished_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('jobs_claim').on('jobs').columns(['status', 'run_after']).execute();
  await db.schema.createIndex('jobs_slide').on('jobs').columns(['slide_id', 'id']).execute();
  await db.schema.createIndex('jobs_live_dedupe').on('jobs').column('dedupe_key').unique()
    .where(sql.ref('status'), 'in', sql`('queued', 'running')`).execute();
  await db.schema.alterTable('slides').addColumn('progress', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('slides').dropColumn('progress').execute();
  await db.schema.dropTable('jobs').ifExists().execute();
}
