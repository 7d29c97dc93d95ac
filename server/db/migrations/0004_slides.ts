import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/** Slide files known to the system: one row per file under `<dataDir>/slides`, metadata read once at ingest. */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.createTable('slides')
    .addColumn('id', (pg ? 'serial' : 'integer') as 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('hospital_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('case_id', 'integer')
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    // Relative to the data dir, so a moved installation keeps working.
    .addColumn('file_path', 'varchar(1024)', (c) => c.notNull().unique())
    // Whole-slide files pass 2 GiB; SQLite's integer is already 64-bit.
    .addColumn('file_size', pg ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('md5', 'varchar(32)')
    .addColumn('vendor', 'varchar(32)')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('levels', 'integer')
    .addColumn('mpp', pg ? 'double precision' : 'real')
    .addColumn('objective_power', pg ? 'double precision' : 'real')
    .addColumn('scan_at', 'varchar(32)')
    .addColumn('tile_size', 'integer')
    .addColumn('status', 'varchar(32)', (c) => c.notNull())
    .addColumn('has_label', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('has_macro', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('uploaded_by', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('slides_case_id').on('slides').column('case_id').execute();
  await db.schema.createIndex('slides_created_at').on('slides').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('slides').ifExists().execute();
}
