import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../db/connect.js';
import type { ResourceDef } from './definition.js';
import { extraSqlText, type AddedColumns } from './extra-fields.js';

/**
 * The name of the index on one added field's value: readable where it fits, and always within PostgreSQL's 63 bytes
 * (a field name may have 63 characters by itself). The hash tells apart the same field name added with another type
 * (by another hospital, or after a change), whose expression — and so whose index — differs on PostgreSQL.
 */
export function extraIndexName(table: string, name: string, type: string): string {
  const hash = createHash('sha256').update(`${table}.${name}:${type}`).digest('hex').slice(0, 8);
  return `${table.slice(0, 16)}_x_${name.slice(0, 30)}_${hash}`;
}

/**
 * The statement that builds it, on the very expression the list filter and sort use (extra-fields.ts), so the planner
 * can take it. PostgreSQL builds it CONCURRENTLY, so a big table of cases keeps taking writes while it builds; that
 * form cannot run in a transaction, and the caller runs it on a connection of its own.
 */
export function extraIndexSql(table: string, name: string, type: AddedColumns[string], pg: boolean): string {
  const index = extraIndexName(table, name, type);
  const expression = extraSqlText('extra', name, type, pg);
  return pg
    ? `CREATE INDEX CONCURRENTLY IF NOT EXISTS "${index}" ON "${table}" ((${expression}))`
    : `CREATE INDEX IF NOT EXISTS "${index}" ON "${table}" (${expression})`;
}

/**
 * Indexes the added fields of a resource (idempotent: an index there already is kept). On PostgreSQL, an index a
 * failed or cancelled concurrent build left invalid is dropped and built again (IF NOT EXISTS would keep it, unused),
 * and the build runs without the statement timeout: on a big table it may take longer than any list query should.
 */
// Resource tables are named by data (schemas/resources), not by schema.ts's types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function ensureExtraIndexes(db: Kysely<any>, def: Pick<ResourceDef, 'table'>, added: AddedColumns): Promise<void> {
  const pg = isPostgres(db);
  for (const [name, type] of Object.entries(added)) {
    if (!pg) {
      await sql.raw(extraIndexSql(def.table, name, type, false)).execute(db);
      continue;
    }
    await db.connection().execute(async (conn) => {
      await sql`SET statement_timeout = 0`.execute(conn);
      try {
        const index = extraIndexName(def.table, name, type);
        const invalid = await sql<{ n: number }>`SELECT 1 AS n FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE c.relname = ${index} AND c.relnamespace = current_schema()::regnamespace AND NOT i.indisvalid`.execute(conn);
        if (invalid.rows.length) await sql.raw(`DROP INDEX CONCURRENTLY IF EXISTS "${index}"`).execute(conn);
        await sql.raw(extraIndexSql(def.table, name, type, true)).execute(conn);
      } finally {
        await sql`RESET statement_timeout`.execute(conn);
      }
    });
  }
}
