import type { Kysely } from 'kysely';
import type { ResourceDef } from '../resources/definition.js';

/**
 * Indexes chosen from what each resource declares: every sortable column, and every filterable
 * number or time column (equality and range filters use them). Text filters are mostly `like %x%`,
 * which no B-tree helps, so they get none unless sortable. Composite indexes are declared by the
 * resource (`indexes`). Idempotent; runs at start-up.
 */
export function indexedColumns(def: ResourceDef): string[] {
  return Object.entries(def.columns)
    .filter(([name, c]) => name !== 'id' && (c.sort || (c.filter && ['integer', 'number', 'date', 'datetime', 'boolean'].includes(c.type))))
    .map(([name]) => name);
}

// Resource tables are named by data (schemas/resources), not by schema.ts's types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function ensureResourceIndexes(db: Kysely<any>, defs: ResourceDef[]): Promise<void> {
  for (const def of defs) {
    for (const column of indexedColumns(def)) {
      await db.schema.createIndex(`${def.table}_${column}_idx`).ifNotExists().on(def.table).column(column).execute();
    }
    for (const columns of def.indexes ?? []) {
      await db.schema.createIndex(`${def.table}_${columns.join('_')}_idx`).ifNotExists().on(def.table).columns(columns).execute();
    }
    for (const v of Object.values(def.virtual ?? {})) {
      await db.schema.createIndex(`${v.via.table}_${v.via.column}_idx`).ifNotExists().on(v.via.table).column(v.via.column).execute();
    }
  }
}
