import type { Db } from '../../db/connect.js';

/** The SQL of uploads kept in object storage (shared-chunks.ts): which chunks are present, who finishes. */

/** Records a chunk whose object is written; a chunk sent twice keeps its first row (same verified bytes). */
export async function markSharedChunk(db: Db, uploadId: string, num: number, size: number): Promise<void> {
  await db.insertInto('upload_chunks').values({ upload_id: uploadId, num, size, created_at: Date.now() })
    .onConflict((oc) => oc.columns(['upload_id', 'num']).doNothing()).execute();
}

/** The present chunks of an upload (1..total) with their sizes, ascending. */
export async function sharedChunks(db: Db, uploadId: string, totalNum: number): Promise<{ num: number; size: number }[]> {
  const rows = await db.selectFrom('upload_chunks').select(['num', 'size'])
    .where('upload_id', '=', uploadId).where('num', '<=', totalNum).orderBy('num').execute();
  return rows.map((r) => ({ num: Number(r.num), size: Number(r.size) }));
}

export async function forgetSharedChunk(db: Db, uploadId: string, num: number): Promise<void> {
  await db.deleteFrom('upload_chunks').where('upload_id', '=', uploadId).where('num', '=', num).execute();
}

export async function forgetSharedChunks(db: Db, uploadId: string): Promise<void> {
  await db.deleteFrom('upload_chunks').where('upload_id', '=', uploadId).execute();
}

/** Uploads whose newest chunk is older than `before` (ms): abandoned, for the sweep. */
export async function abandonedSharedUploads(db: Db, before: number, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('upload_chunks').select('upload_id').groupBy('upload_id')
    .having((eb) => eb.fn.max('created_at'), '<', before).limit(limit).execute();
  return rows.map((r) => r.upload_id);
}

/**
 * Takes the right to finish an upload: a new row, or one whose heartbeat is older than `staleBefore` (its holder was
 * killed). The UPDATE repeats the staleness condition, so of two processes taking over one claim only one succeeds.
 */
export async function claimSharedFinish(db: Db, uploadId: string, owner: string, staleBefore: number): Promise<boolean> {
  const now = Date.now();
  const inserted = await db.insertInto('upload_finishes').values({ upload_id: uploadId, owner, heartbeat_at: now })
    .onConflict((oc) => oc.column('upload_id').doNothing()).executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true;
  const taken = await db.updateTable('upload_finishes').set({ owner, heartbeat_at: now })
    .where('upload_id', '=', uploadId).where('heartbeat_at', '<', staleBefore).executeTakeFirst();
  return Number(taken.numUpdatedRows) > 0;
}

/** Keeps a claim alive; false when it was taken over meanwhile (this process was thought dead). */
export async function beatSharedFinish(db: Db, uploadId: string, owner: string): Promise<boolean> {
  const r = await db.updateTable('upload_finishes').set({ heartbeat_at: Date.now() })
    .where('upload_id', '=', uploadId).where('owner', '=', owner).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function releaseSharedFinish(db: Db, uploadId: string, owner: string): Promise<void> {
  await db.deleteFrom('upload_finishes').where('upload_id', '=', uploadId).where('owner', '=', owner).execute();
}

export async function sharedFinishHeld(db: Db, uploadId: string): Promise<boolean> {
  return !!(await db.selectFrom('upload_finishes').select('upload_id').where('upload_id', '=', uploadId).executeTakeFirst());
}
