import type { Kysely } from 'kysely';

/**
 * What the UI must say about how a slide file was read: `kfb_experimental` for a KFB read by our
 * reverse-engineered reader, or why a file could not be served (`kfb_unreadable`, `dzi_unreadable`,
 * `zip_unsafe_path`, `zip_not_deep_zoom`). A code, translated where it is shown (enum `slide_format_note`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('slides').addColumn('format_note', 'varchar(64)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('slides').dropColumn('format_note').execute();
}
