import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * A pathologist's favourites (spec §3 collection categories, §5 favourite): personal categories and
 * collected slides. A slide is collected once per user (unique user_id, slide_id): the favourite star
 * on a slide is one switch, it sits in one category at a time, and moving it is changing category_id.
 * Deleting a category moves its slides to "uncategorised" (SET NULL) rather than losing them; deleting
 * a slide or a user takes their favourites with them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = (pg ? 'serial' : 'integer') as 'integer';
  await db.schema.createTable('collection_categories')
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('collection_categories_user_name', ['user_id', 'name'])
    .execute();
  await db.schema.createTable('collections')
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('category_id', 'integer', (c) => c.references('collection_categories.id').onDelete('set null'))
    .addColumn('slide_id', 'integer', (c) => c.notNull().references('slides.id').onDelete('cascade'))
    .addColumn('remark', 'varchar(500)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('collections_user_slide', ['user_id', 'slide_id'])
    .execute();
  // The cascades and the per-category counts look rows up by these.
  await db.schema.createIndex('collections_category_id').on('collections').column('category_id').execute();
  await db.schema.createIndex('collections_slide_id').on('collections').column('slide_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('collections').ifExists().execute();
  await db.schema.dropTable('collection_categories').ifExists().execute();
}
