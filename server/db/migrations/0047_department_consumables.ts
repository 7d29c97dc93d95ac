import { sql, type Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * The department's assets and consumables (issue 32, spec §1), built as schemas and rule files like 0046: `assets`
 * (scanners, microscopes and other equipment, with the who/when of their states, schemas/rules/assets.json),
 * `warehouses` (name, volume), `consumables` (code, unit, warehouse, stock limits), `consumable_batches` (each
 * batch's stock, unit price, production date and validity days) and `stock_orders` (inbound and outbound movements,
 * the ledger that alone moves a batch's stock, server/resources/ledger.ts). The unique index over hospital, consumable
 * and batch is the one the ledger's upsert names; the CHECK keeps a batch's stock from going below zero whatever
 * writes it. A warehouse holding consumables, or a consumable with movements, cannot be deleted (the foreign keys: a
 * translated 409, resource.in_use): the ledger's history stays whole. Deleting a hospital takes all of it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = (pg ? 'serial' : 'integer') as 'integer';
  const table = (name: string) => db.schema.createTable(name)
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('hospital_id', 'integer', (c) => c.notNull().references('hospitals.id').onDelete('cascade'));
  const stamps = <T extends { addColumn: (...a: any[]) => T }>(t: T) => t
    .addColumn('created_at', 'varchar(32)', (c: any) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c: any) => c.notNull());
  const unique = (name: string, on: string, columns: string[]) => db.schema.createIndex(name).on(on).columns(columns).unique().execute();

  await stamps(table('assets')
    .addColumn('asset_number', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('category', 'varchar(32)', (c) => c.notNull())
    .addColumn('model', 'varchar(128)')
    .addColumn('serial_number', 'varchar(128)')
    .addColumn('location', 'varchar(128)')
    .addColumn('keeper', 'varchar(64)')
    .addColumn('purchase_date', 'varchar(10)')
    .addColumn('price', 'double precision')
    .addColumn('status', 'varchar(32)', (c) => c.notNull().defaultTo('in_use'))
    .addColumn('repair_note', 'varchar(500)')
    .addColumn('reported_by', 'integer')
    .addColumn('reported_at', 'varchar(32)')
    .addColumn('restored_by', 'integer')
    .addColumn('restored_at', 'varchar(32)')
    .addColumn('scrap_reason', 'varchar(500)')
    .addColumn('scrapped_by', 'integer')
    .addColumn('scrapped_at', 'varchar(32)')
    .addColumn('remark', 'varchar(500)')).execute();
  await unique('assets_hospital_number', 'assets', ['hospital_id', 'asset_number']);

  await stamps(table('warehouses')
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('volume', 'double precision')
    .addColumn('location', 'varchar(128)')
    .addColumn('remark', 'varchar(500)')).execute();
  await unique('warehouses_hospital_name', 'warehouses', ['hospital_id', 'name']);

  await stamps(table('consumables')
    .addColumn('code', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('specification', 'varchar(128)')
    .addColumn('unit', 'varchar(16)', (c) => c.notNull())
    .addColumn('warehouse_id', 'integer', (c) => c.references('warehouses.id'))
    .addColumn('min_stock', 'integer')
    .addColumn('max_stock', 'integer')
    .addColumn('remark', 'varchar(500)')).execute();
  await unique('consumables_hospital_code', 'consumables', ['hospital_id', 'code']);

  await stamps(table('consumable_batches')
    .addColumn('consumable_id', 'integer', (c) => c.notNull().references('consumables.id'))
    .addColumn('batch_number', 'varchar(64)', (c) => c.notNull())
    .addColumn('stock', 'integer', (c) => c.notNull().defaultTo(0).check(sql`stock >= 0`))
    .addColumn('unit_price', 'double precision')
    .addColumn('produced_on', 'varchar(10)')
    .addColumn('validity_days', 'integer')).execute();
  await unique('consumable_batches_key', 'consumable_batches', ['hospital_id', 'consumable_id', 'batch_number']);

  await stamps(table('stock_orders')
    .addColumn('order_number', 'varchar(64)', (c) => c.notNull())
    .addColumn('order_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('consumable_id', 'integer', (c) => c.notNull().references('consumables.id'))
    .addColumn('batch_number', 'varchar(64)', (c) => c.notNull())
    .addColumn('batch_id', 'integer', (c) => c.references('consumable_batches.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('unit_price', 'double precision')
    .addColumn('produced_on', 'varchar(10)')
    .addColumn('validity_days', 'integer')
    .addColumn('party', 'varchar(128)')
    .addColumn('remark', 'varchar(500)')).execute();
  await unique('stock_orders_hospital_number', 'stock_orders', ['hospital_id', 'order_number']);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['stock_orders', 'consumable_batches', 'consumables', 'warehouses', 'assets']) await db.schema.dropTable(t).execute();
}
