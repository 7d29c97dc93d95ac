import { sql } from 'kysely';
import { isPostgres, type Db } from '../../db/connect.js';

/** First key of PostgreSQL's two-key advisory lock: "attachment quota"; the second is the user id. */
const PG_LOCK_CLASS = 0x41_54_51; // 'ATQ'

/**
 * The per-user attachment quota, counted from the attachments table (who stored what, how big). The last
 * step, "count and record", runs one user at a time (SQLite serialises writes; PostgreSQL takes an advisory
 * lock per user), so parallel uploads cannot together overshoot it.
 */
export class AttachmentQuota {
  readonly limitBytes: number;

  /** `quotaMb`: ATTACHMENT_QUOTA_MB (config.ts, default 1024). */
  constructor(private readonly db: Db, quotaMb: number) {
    if (!(quotaMb >= 0) || !Number.isFinite(quotaMb)) throw new Error('ATTACHMENT_QUOTA_MB must be a number of MiB, 0 or more');
    this.limitBytes = Math.floor(quotaMb * 1024 * 1024);
  }

  async used(userId: number, db: Db = this.db): Promise<number> {
    const row = await db.selectFrom('attachments').select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('size'), sql<number>`0`).as('used'))
      .where('user_id', '=', userId).executeTakeFirst();
    return Number(row?.used ?? 0);
  }

  /** Records a stored file against its user, or answers false (recording nothing) when it would pass the quota. */
  async record(entry: { userId: number; hospitalId: number | null; path: string; size: number }): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (isPostgres(this.db)) await sql`select pg_advisory_xact_lock(${PG_LOCK_CLASS}, ${entry.userId})`.execute(trx);
      if ((await this.used(entry.userId, trx)) + entry.size > this.limitBytes) return false;
      await trx.insertInto('attachments').values({
        user_id: entry.userId, hospital_id: entry.hospitalId, path: entry.path, size: entry.size, created_at: new Date().toISOString(),
      }).execute();
      return true;
    });
  }

  async forget(path: string): Promise<void> {
    await this.db.deleteFrom('attachments').where('path', '=', path).execute();
  }
}
