import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import type { QrLoginTable } from '../../db/schema.js';

/** A code lives two minutes: long enough to take out a phone, short enough that a photographed screen is useless. */
export const QR_LIFETIME_MS = 120_000;
/** Rows are kept a day after they expire (the login log holds the lasting record), then swept. */
const KEEP_MS = 24 * 3_600_000;

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

export type QrRow = Pick<QrLoginTable, 'status' | 'user_id' | 'secret_hash' | 'expires_at' | 'ip' | 'user_agent' | 'created_at'>;

/** A new request: its id (in the QR code) and its secret (the waiting browser's alone, needed to collect the session). */
export async function createQrLogin(db: Db, client: { ip: string; userAgent?: string }, now = new Date()) {
  const id = randomBytes(16).toString('base64url');
  const secret = randomBytes(32).toString('base64url');
  const expires = new Date(now.getTime() + QR_LIFETIME_MS);
  await db.deleteFrom('qr_logins').where('expires_at', '<', new Date(now.getTime() - KEEP_MS).toISOString()).execute();
  await db.insertInto('qr_logins').values({
    id_hash: sha(id), secret_hash: sha(secret), status: 'waiting', user_id: null, ip: client.ip.slice(0, 64),
    user_agent: client.userAgent?.slice(0, 300) ?? null, created_at: now.toISOString(), expires_at: expires.toISOString(), approved_at: null,
  }).execute();
  return { id, secret, expiresAt: expires };
}

export function findQrLogin(db: Db, id: string): Promise<QrRow | undefined> {
  return db.selectFrom('qr_logins').select(['status', 'user_id', 'secret_hash', 'expires_at', 'ip', 'user_agent', 'created_at'])
    .where('id_hash', '=', sha(id)).executeTakeFirst();
}

/** The waiting browser proves it is the one that asked (constant-time). */
export function secretMatches(row: QrRow, secret: string): boolean {
  const a = Buffer.from(row.secret_hash, 'hex');
  const b = Buffer.from(sha(secret), 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export const expired = (row: QrRow, now = new Date()) => Date.parse(row.expires_at) <= now.getTime();

/** The phone's answer; only a waiting, unexpired request takes it (one of two racing phones wins). */
export async function decide(db: Db, id: string, userId: number, approve: boolean, now = new Date()): Promise<boolean> {
  const res = await db.updateTable('qr_logins')
    .set({ status: approve ? 'approved' : 'declined', user_id: userId, approved_at: now.toISOString() })
    .where('id_hash', '=', sha(id)).where('status', '=', 'waiting').where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Collects an approved request once: of two racing checks, one gets the session. */
export async function markUsed(db: Db, id: string, now = new Date()): Promise<boolean> {
  const res = await db.updateTable('qr_logins').set({ status: 'used' })
    .where('id_hash', '=', sha(id)).where('status', '=', 'approved').where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
