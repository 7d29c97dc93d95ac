import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * Slide annotations (issue 11): shapes drawn in the viewer, in level-0 image pixels, with what was measured on
 * them. A row carries its slide's hospital so a hospital-scoped read needs no join; `version` lets two people
 * editing the same annotation find out instead of overwriting each other.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.createTable('slide_annotations')
    .addColumn('id', (pg ? 'serial' : 'integer') as 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('slide_id', 'integer', (c) => c.notNull().references('slides.id').onDelete('cascade'))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('username', 'varchar(64)')
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    // JSON [[x, y], …]; up to 10,000 vertices (src/core/annotationGeometry.ts).
    .addColumn('points', 'text', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
    .addColumn('color', 'varchar(7)', (c) => c.notNull())
    .addColumn('classification', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('length_um', 'double precision')
    .addColumn('area_um2', 'double precision')
    .addColumn('perimeter_um', 'double precision')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('slide_annotations_slide').on('slide_annotations').columns(['slide_id', 'id']).execute();

  // Case images (issue 11: a viewer screenshot edited in /image/edit, kept for the report): an attachment
  // (POST /api/upload/image) tied to a case, with the slide it was taken from.
  await db.schema.createTable('case_images')
    .addColumn('id', (pg ? 'serial' : 'integer') as 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('case_id', 'integer', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('path', 'varchar(1024)', (c) => c.notNull().unique())
    .addColumn('slide_id', 'integer', (c) => c.references('slides.id').onDelete('set null'))
    .addColumn('title', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('case_images_case').on('case_images').column('case_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('case_images').ifExists().execute();
  await db.schema.dropTable('slide_annotations').ifExists().execute();
}
