import type { Db } from '../../db/connect.js';
import type { ScannerStatus } from '../../../src/core/scannerStatus.js';
import { offlineCutoff } from '../../../src/core/scannerStatus.js';
import { emitEvent } from '../../events/bus.js';

export interface AgentScanner { id: number; hospital_id: number; name: string; status: ScannerStatus }

/** The scanner a key belongs to; undefined for an unknown or revoked key. */
export function scannerByKeyHash(db: Db, hash: string): Promise<AgentScanner | undefined> {
  return db.selectFrom('scanners').select(['id', 'hospital_id', 'name', 'status'])
    .where('key_hash', '=', hash).where('key_revoked_at', 'is', null).executeTakeFirst();
}

/**
 * Records a heartbeat at `now` (injectable: tests move time instead of waiting). The state changes, and a change
 * is announced, only when it differs from the stored one; `status_at` says since when a scanner is in its state.
 */
export async function heartbeat(db: Db, scannerId: number, status: ScannerStatus, message: string | null, now = new Date()): Promise<{ changed: boolean }> {
  const at = now.toISOString();
  // Compare-and-set on the state read: of two heartbeats racing, one announces the change, the other sees it made.
  for (;;) {
    const before = await db.selectFrom('scanners').select(['status', 'hospital_id']).where('id', '=', scannerId).executeTakeFirstOrThrow();
    const changed = before.status !== status;
    const result = await db.updateTable('scanners')
      .set({ status, heartbeat_at: at, message, updated_at: at, ...(changed ? { status_at: at } : {}) })
      .where('id', '=', scannerId).where('status', '=', before.status).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) continue;
    if (changed) emitEvent(db, 'scanner.status', { scannerId, hospitalId: before.hospital_id, status, previous: before.status, at });
    return { changed };
  }
}

/**
 * Scanners silent for a minute or more at `now` become offline; answers how many. One UPDATE … RETURNING: of two
 * processes sweeping at once, only one turns a given scanner offline and announces it.
 */
export async function sweepOffline(db: Db, now = new Date()): Promise<number> {
  const at = now.toISOString();
  const rows = await db.updateTable('scanners').set({ status: 'offline', status_at: at, updated_at: at })
    .where('status', '<>', 'offline')
    .where((eb) => eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<=', offlineCutoff(now.getTime()))]))
    .returning(['id', 'hospital_id']).execute();
  for (const r of rows) emitEvent(db, 'scanner.status', { scannerId: r.id, hospitalId: r.hospital_id, status: 'offline', previous: null, at });
  return rows.length;
}
