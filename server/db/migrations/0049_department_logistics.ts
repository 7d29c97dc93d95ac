import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * The department's logistics, report delivery and follow-up (issue 32, spec §3, §4), built like 0046's archive and
 * borrowing as schemas and rule files: `logistics_orders` (specimens sent from one hospital of the group to another:
 * distributed → in transit → signed, read by both, schemas/rules/logistics-orders.json), `report_deliveries`
 * (pending → in delivery → delivered) and `follow_ups` (a case followed, ended and followed again, with its next
 * follow-up date). The columns only hold the states and the who/when of each step.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = (pg ? 'serial' : 'integer') as 'integer';
  const table = (name: string) => db.schema.createTable(name)
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('hospital_id', 'integer', (c) => c.notNull().references('hospitals.id').onDelete('cascade'));
  const stamps = <T extends { addColumn: (...a: any[]) => T }>(t: T, ...steps: string[]) =>
    steps.reduce((acc, s) => acc.addColumn(`${s}_by`, 'integer').addColumn(`${s}_at`, 'varchar(32)'), t)
      .addColumn('created_at', 'varchar(32)', (c: any) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c: any) => c.notNull());

  await stamps(table('logistics_orders')
    .addColumn('to_hospital_id', 'integer', (c) => c.notNull().references('hospitals.id').onDelete('cascade'))
    .addColumn('order_number', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'varchar(32)', (c) => c.notNull().defaultTo('distributed'))
    .addColumn('pathology_number', 'varchar(64)')
    .addColumn('specimen_count', 'integer')
    .addColumn('contents', 'varchar(500)')
    .addColumn('courier', 'varchar(64)')
    .addColumn('sign_note', 'varchar(500)'), 'distributed', 'shipped', 'signed').execute();
  await db.schema.createIndex('logistics_orders_hospital_number').on('logistics_orders').columns(['hospital_id', 'order_number']).unique().execute();
  await db.schema.createIndex('logistics_orders_to_hospital').on('logistics_orders').columns(['to_hospital_id', 'status']).execute();

  await stamps(table('report_deliveries')
    .addColumn('delivery_number', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'varchar(32)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('pathology_number', 'varchar(64)', (c) => c.notNull())
    .addColumn('recipient', 'varchar(64)', (c) => c.notNull())
    .addColumn('recipient_phone', 'varchar(32)')
    .addColumn('address', 'varchar(255)')
    .addColumn('copies', 'integer')
    .addColumn('courier', 'varchar(64)')
    .addColumn('receiver', 'varchar(64)')
    .addColumn('delivery_note', 'varchar(500)'), 'dispatched', 'delivered').execute();
  await db.schema.createIndex('report_deliveries_hospital_number').on('report_deliveries').columns(['hospital_id', 'delivery_number']).unique().execute();

  await stamps(table('follow_ups')
    .addColumn('case_id', 'integer', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('status', 'varchar(32)', (c) => c.notNull().defaultTo('following'))
    .addColumn('follow_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('method', 'varchar(32)')
    .addColumn('contact', 'varchar(64)')
    .addColumn('content', 'varchar(500)')
    .addColumn('result', 'varchar(1000)'), 'started', 'ended', 'refollowed').execute();
  await db.schema.createIndex('follow_ups_case').on('follow_ups').columns(['case_id']).execute();
  await db.schema.createIndex('follow_ups_hospital_status').on('follow_ups').columns(['hospital_id', 'status', 'follow_date']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('follow_ups').execute();
  await db.schema.dropTable('report_deliveries').execute();
  await db.schema.dropTable('logistics_orders').execute();
}
