import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { SessionUser } from '../../http/types.js';

export interface WriteContext {
  creating: boolean;
  id?: number;
  user: SessionUser;
  /** Hospital-scoped resources: the hospital a new row belongs to. */
  hospitalId?: number;
}
export type Row = Record<string, unknown> & { id: number };

/**
 * Domain code a generic resource needs: fields it consumes itself (passwords, join tables),
 * values it derives, what it attaches to rows it reads, and what it refuses to delete.
 */
export interface ResourceHooks {
  consumes?: string[];
  afterRead?(db: Kysely<Database>, rows: Row[]): Promise<Row[]>;
  /** `db`: for checks that read other rows (a favourite's slide must be one the user may see). */
  beforeWrite?(data: Record<string, unknown>, ctx: WriteContext, db: Kysely<Database>): Promise<Record<string, unknown>>;
  afterWrite?(trx: Kysely<Database>, id: number, data: Record<string, unknown>, ctx: WriteContext): Promise<void>;
  beforeDelete?(db: Kysely<Database>, ids: number[], ctx: WriteContext): Promise<void>;
  /** After the rows are gone (same ctx object as beforeDelete): files and logs that must not outlive them. */
  afterDelete?(db: Kysely<Database>, ids: number[], ctx: WriteContext): Promise<void>;
}
