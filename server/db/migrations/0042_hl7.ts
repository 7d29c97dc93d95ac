import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * HL7 v2 with the HIS (issue 30). `hl7_messages`: every message taken by the MLLP listener or sent to the HIS, with
 * its direction, type, control id, status, error and raw text (the message log). `dedupe_key` is set once a message
 * taken has its final answer, so the same control id from the same sender is answered again, not processed twice; a
 * sent result's key is its report's. `hl7_patients`: the patients the HIS registered (ADT), by hospital and
 * outpatient or admission number, which registration's `hl7` HIS adapter looks up.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = (pg ? 'serial' : 'integer') as 'integer';
  await db.schema.createTable('hl7_messages')
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    // 'in' (from the HIS) or 'out' (a result to it).
    .addColumn('direction', 'varchar(8)', (c) => c.notNull())
    // Null: a message that named no hospital of ours (administrators alone read it).
    .addColumn('hospital_id', 'integer')
    .addColumn('message_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('control_id', 'varchar(64)', (c) => c.notNull())
    // Who sent it (MSH-3^MSH-4) or where it went (host:port).
    .addColumn('peer', 'varchar(255)', (c) => c.notNull())
    // in: accepted | error | rejected; out: queued | retrying | acked | failed.
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('ack_code', 'varchar(4)')
    .addColumn('error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // What it made or carried: {"application_id": …} or {"report_id": …, "job_id": …}.
    .addColumn('detail', 'text')
    .addColumn('raw', 'text', (c) => c.notNull())
    .addColumn('ack', 'text')
    .addColumn('dedupe_key', 'varchar(400)', (c) => c.unique())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('hl7_messages_hospital').on('hl7_messages').columns(['hospital_id', 'id']).execute();
  await db.schema.createTable('hl7_patients')
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    // 'outpatient' or 'admission'.
    .addColumn('number_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('number', 'varchar(64)', (c) => c.notNull())
    // The patient as registration's form takes it (JSON, the HIS adapter's fields).
    .addColumn('patient', 'text', (c) => c.notNull())
    .addColumn('message_id', 'integer')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('hl7_patients_pk', ['hospital_id', 'number_kind', 'number'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('hl7_patients').ifExists().execute();
  await db.schema.dropIndex('hl7_messages_hospital').ifExists().execute();
  await db.schema.dropTable('hl7_messages').ifExists().execute();
}
