import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { SessionUser } from '../../http/types.js';

export interface WriteContext {
  creating: boolean;
  id?: number;
  user: SessionUser;
  /** Hospital-scoped resources: the hospital a new row belongs to. */
  hospitalId?: number;
  /** The state machine step this write is (server/resources/transitions.ts); absent for a plain update. */
  transition?: string;
}
export type Row = Record<string, unknown> & { id: number };

/** What a derived field's filter is made for: the list's owners (hospitals), the user's working hospital, a per-request memo. */
export interface DerivedFilterContext {
  scope?: number[];
  hospitalId: number;
  memo: Map<string, unknown>;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- resource tables are named by data, not by the Database type
export type DerivedMatch = (eb: ExpressionBuilder<any, any>) => Expression<SqlBool>;

/**
 * Domain code a generic resource needs: fields it consumes itself (passwords, join tables),
 * values it derives, what it attaches to rows it reads, and what it refuses to delete.
 * Modules write them and register them by name (server/modules/resource-hooks.ts); this layer only calls them.
 *
 * A delete runs in one transaction: beforeDelete → the rows (and a tree's subtree) go → afterDelete; then it
 * commits, then afterDeleteCommitted. What beforeDelete returns (`Doomed`: what it read of the rows before they
 * went) is passed to both later hooks. A throw before the commit takes the whole delete back.
 */
export interface ResourceHooks<Doomed = unknown> {
  consumes?: string[];
  afterRead?(db: Kysely<Database>, rows: Row[]): Promise<Row[]>;
  /** `db`: for checks that read other rows (a favourite's slide must be one the user may see). */
  beforeWrite?(data: Record<string, unknown>, ctx: WriteContext, db: Kysely<Database>): Promise<Record<string, unknown>>;
  afterWrite?(trx: Kysely<Database>, id: number, data: Record<string, unknown>, ctx: WriteContext): Promise<void>;
  /** In the delete's transaction, before the rows go: refuse by throwing, or read what the later hooks need. */
  beforeDelete?(trx: Kysely<Database>, ids: number[], ctx: WriteContext): Promise<Doomed>;
  /** In the same transaction, after the rows are gone (`ids`: with a tree's subtree): rows that must not outlive them. */
  afterDelete?(trx: Kysely<Database>, ids: number[], ctx: WriteContext, doomed: Doomed): Promise<void>;
  /** Once the delete has committed: files and caches that must not outlive the rows (a rolled-back delete keeps them). */
  afterDeleteCommitted?(ids: number[], ctx: WriteContext, doomed: Doomed): Promise<void>;
  /**
   * A derived field (ResourceDef.derivedFilters) holding one of `values`, as SQL over the table's real columns
   * (server/resources/derived-filters.ts): lists and tab counts filter by it like by a column.
   */
  derivedFilter?(db: Kysely<Database>, field: string, values: string[], ctx: DerivedFilterContext): Promise<DerivedMatch>;
}
