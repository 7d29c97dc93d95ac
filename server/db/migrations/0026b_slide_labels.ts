import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * Labels on slides (issue 16, spec §7 label calls): which label a slide carries, put there by hand or by the
 * automatic labelling, by whom and when. LabelStatistics counts them per label; the maintenance record lists them.
 * One label once per slide. Named 0026b so it sorts after 0026_statistics_indexes, already applied on main.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.createTable('slide_labels')
    .addColumn('id', (pg ? 'serial' : 'integer') as 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('slide_id', 'integer', (c) => c.notNull().references('slides.id').onDelete('cascade'))
    .addColumn('label_id', 'integer', (c) => c.notNull().references('labels.id').onDelete('cascade'))
    // manual | auto
    .addColumn('source', 'varchar(8)', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('slide_labels_slide_label').on('slide_labels').columns(['slide_id', 'label_id']).unique().execute();
  await db.schema.createIndex('slide_labels_hospital_created').on('slide_labels').columns(['hospital_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('slide_labels').ifExists().execute();
}
