import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * The department's archive and borrowing (issue 32, spec §1, §9), the first module built as schemas and rule files:
 * `archive_items` (slides and wax blocks filed, packed, and where they are) and `borrow_orders` (number, type, the
 * borrower, deposit, compensation, due date, and the who/when of each step). Their states are data of
 * schemas/rules/archive-items.json and borrow-orders.json (src/core/stateMachine.ts); the columns only hold them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = (pg ? 'serial' : 'integer') as 'integer';
  const table = (name: string) => db.schema.createTable(name)
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('hospital_id', 'integer', (c) => c.notNull().references('hospitals.id').onDelete('cascade'));
  await table('archive_items')
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('code', 'varchar(64)', (c) => c.notNull())
    .addColumn('pathology_number', 'varchar(64)', (c) => c.notNull())
    .addColumn('archive_status', 'varchar(32)', (c) => c.notNull().defaultTo('not_filed'))
    .addColumn('location', 'varchar(128)')
    .addColumn('box', 'varchar(64)')
    .addColumn('filed_by', 'integer')
    .addColumn('filed_at', 'varchar(32)')
    .addColumn('packed_by', 'integer')
    .addColumn('packed_at', 'varchar(32)')
    .addColumn('remark', 'varchar(500)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('archive_items_hospital_code').on('archive_items').columns(['hospital_id', 'code']).unique().execute();
  await table('borrow_orders')
    .addColumn('order_number', 'varchar(64)', (c) => c.notNull())
    .addColumn('borrow_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(32)', (c) => c.notNull().defaultTo('checking'))
    .addColumn('borrower', 'varchar(64)', (c) => c.notNull())
    .addColumn('borrower_phone', 'varchar(32)')
    .addColumn('borrower_unit', 'varchar(128)')
    .addColumn('pathology_number', 'varchar(64)')
    .addColumn('items', 'varchar(500)')
    .addColumn('purpose', 'varchar(500)')
    .addColumn('deposit', 'double precision')
    .addColumn('compensation', 'double precision')
    .addColumn('due_date', 'varchar(10)')
    .addColumn('check_note', 'varchar(500)')
    .addColumn('checked_by', 'integer')
    .addColumn('checked_at', 'varchar(32)')
    .addColumn('lent_by', 'integer')
    .addColumn('lent_at', 'varchar(32)')
    .addColumn('returned_by', 'integer')
    .addColumn('returned_at', 'varchar(32)')
    .addColumn('return_note', 'varchar(500)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('borrow_orders_hospital_number').on('borrow_orders').columns(['hospital_id', 'order_number']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('borrow_orders').execute();
  await db.schema.dropTable('archive_items').execute();
}
