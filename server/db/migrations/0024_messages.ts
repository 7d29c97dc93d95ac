import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * Messages and notices (issue 17, spec §3, §7): one row per recipient, so reading and deleting are the recipient's
 * alone; `batch` ties the rows of one sending together for the sender's "sent" list. A system message (a case
 * assigned to you, a report returned to you) stores a message key and its parameters instead of text, and is
 * worded in the reader's language when it is read.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.createTable('messages')
    .addColumn('id', (pg ? 'serial' : 'integer') as 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('batch', 'varchar(36)', (c) => c.notNull())
    .addColumn('hospital_id', 'integer')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('from_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    // message (one user to others), notice (to a hospital or roles), system (raised by the workflow)
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    // Spec §9 notice levels: 0 normal, 1 important, 2 very important.
    .addColumn('level', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('message_key', 'varchar(64)')
    .addColumn('params', 'text')
    .addColumn('link', 'varchar(500)')
    .addColumn('read_at', 'varchar(32)')
    .addColumn('recipient_deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sender_deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('messages_inbox').on('messages').columns(['user_id', 'recipient_deleted', 'id']).execute();
  await db.schema.createIndex('messages_sent').on('messages').columns(['from_user_id', 'sender_deleted', 'batch']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('messages').ifExists().execute();
}
