import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * Reading meetings (issue 12, spec §3 "reading conferences: name, cover, time"): a hospital's meeting over a list
 * of slides. `presenter_id` is who holds control now (the participants' viewers follow theirs); `version` grows with
 * every change of state, so a take of control is a compare-and-set on it and concurrent takes have one winner.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = (pg ? 'serial' : 'integer') as 'integer';
  await db.schema.createTable('meetings')
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    // The cover is one of the meeting's slides (its thumbnail is shown in the list).
    .addColumn('cover_slide_id', 'integer', (c) => c.references('slides.id').onDelete('set null'))
    .addColumn('start_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('presenter_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('slide_id', 'integer', (c) => c.references('slides.id').onDelete('set null'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('open'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('ended_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('meetings_hospital').on('meetings').columns(['hospital_id', 'status', 'start_at']).execute();

  await db.schema.createTable('meeting_slides')
    .addColumn('meeting_id', 'integer', (c) => c.notNull().references('meetings.id').onDelete('cascade'))
    .addColumn('slide_id', 'integer', (c) => c.notNull().references('slides.id').onDelete('cascade'))
    .addColumn('rank', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('meeting_slides_pk', ['meeting_id', 'slide_id'])
    .execute();

  await db.schema.createTable('meeting_participants')
    .addColumn('meeting_id', 'integer', (c) => c.notNull().references('meetings.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('joined_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('meeting_participants_pk', ['meeting_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('meeting_participants').ifExists().execute();
  await db.schema.dropTable('meeting_slides').ifExists().execute();
  await db.schema.dropTable('meetings').ifExists().execute();
}
