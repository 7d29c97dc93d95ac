import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * Slide sections (spec §3 "slide section (paraffin)", §7 sectionAdd): the glass slides cut from a case's
 * wax blocks, numbered block-section with their stain, made before they are scanned. A scanned file is
 * bound to its section; a section holds at most one file.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.createTable('slide_sections')
    .addColumn('id', (pg ? 'serial' : 'integer') as 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    // A case with sections is not deleted from under them (the FK refuses, the API says "in use").
    .addColumn('case_id', 'integer', (c) => c.notNull().references('cases.id'))
    .addColumn('block_number', 'varchar(32)', (c) => c.notNull())
    .addColumn('section_number', 'integer', (c) => c.notNull())
    .addColumn('stain', 'varchar(64)', (c) => c.notNull())
    .addColumn('label', 'varchar(128)')
    .addColumn('slide_id', 'integer', (c) => c.unique().references('slides.id').onDelete('set null'))
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('slide_sections_number').on('slide_sections').columns(['case_id', 'block_number', 'section_number']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('slide_sections').ifExists().execute();
}
