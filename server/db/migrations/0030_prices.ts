import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * Prices and charges (issue 16, spec §2 income statistics). `price_items`: each hospital's price list, one price
 * per item (`case:<kind>`, `special:<examination>`, `additional:<request>`, src/core/prices.ts), in yuan.
 * `case_charges`: what a case or order was charged when it was registered or ordered — the unit price of that
 * moment in integer cents, so a later change of the price list never rewrites history. One charge per case fee and
 * per order (`charge_key`). Income statistics sum `amount_cents` over ranges of `charged_at` per hospital.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = (pg ? 'serial' : 'integer') as 'integer';
  await db.schema.createTable('price_items')
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('item', 'varchar(64)', (c) => c.notNull())
    // Yuan; the resource hook accepts at most two decimals, and charges keep integer cents.
    .addColumn('price', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'varchar(500)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('price_items_hospital_item').on('price_items').columns(['hospital_id', 'item']).unique().execute();

  await db.schema.createTable('case_charges')
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('case_id', 'integer', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('order_id', 'integer', (c) => c.references('technical_orders.id').onDelete('set null'))
    // `case:<id>` for the case fee, `order:<id>` for an order: charged once.
    .addColumn('charge_key', 'varchar(40)', (c) => c.notNull())
    .addColumn('item', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('unit_price_cents', 'integer', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('charged_by', 'integer')
    .addColumn('charged_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('case_charges_key').on('case_charges').column('charge_key').unique().execute();
  await db.schema.createIndex('case_charges_hospital_at').on('case_charges').columns(['hospital_id', 'charged_at']).execute();
  await db.schema.createIndex('case_charges_case').on('case_charges').column('case_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('case_charges').ifExists().execute();
  await db.schema.dropTable('price_items').ifExists().execute();
}
