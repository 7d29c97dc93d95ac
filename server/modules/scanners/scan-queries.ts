import type { Db } from '../../db/connect.js';
import type { ScanResult } from '../../db/schema/qc.js';

/**
 * The SQL of a scanner's own scans (agent-routes.ts): every statement names the scanner, so a scanner sees and
 * changes only its own.
 */

/** What QC sent back for a new scan: the scanner's queue, oldest first. */
export const rescanQueue = (db: Db, scannerId: number) =>
  db.selectFrom('scan_jobs').select(['id', 'barcode', 'slide_id']).where('scanner_id', '=', scannerId).where('rescan', '=', 1).orderBy('id').limit(100).execute();

export interface NewScan { barcode: string | null; scan_level: number | null; scale: number | null }

/** Opens a scan; a new scan of a barcode QC sent back answers that request. Its id. */
export async function startScan(db: Db, scanner: { id: number; hospital_id: number }, scan: NewScan, now: string): Promise<number> {
  const { id } = await db.insertInto('scan_jobs').values({
    hospital_id: scanner.hospital_id, scanner_id: scanner.id, barcode: scan.barcode, scan_level: scan.scan_level,
    scale: scan.scale, result: 'not_scanned', started_at: now, bind_status: 'pending', rescan: 0, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  if (scan.barcode) {
    await db.updateTable('scan_jobs').set({ rescan: 0, updated_at: now }).where('scanner_id', '=', scanner.id).where('barcode', '=', scan.barcode).where('rescan', '=', 1).execute();
  }
  return id;
}

/** One of the scanner's scans. */
export const scanOf = (db: Db, id: number, scannerId: number) =>
  db.selectFrom('scan_jobs').select(['id', 'barcode', 'started_at', 'finished_at'])
    .where('id', '=', id).where('scanner_id', '=', scannerId).executeTakeFirst();

export interface ScanEnd { result: ScanResult; message: string | null; at: string; durationMs: number | null }

/** Closes a scan still open; false: it was finished meanwhile. */
export async function finishScan(db: Db, id: number, end: ScanEnd): Promise<boolean> {
  const done = await db.updateTable('scan_jobs').set({ result: end.result, message: end.message, finished_at: end.at, duration_ms: end.durationMs, updated_at: end.at })
    .where('id', '=', id).where('finished_at', 'is', null).executeTakeFirst();
  return Number(done.numUpdatedRows) > 0;
}
