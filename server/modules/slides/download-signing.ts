import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/connect.js';

/** How long a download link works: long enough to click, short enough that a copied link soon dies. */
export const DOWNLOAD_LINK_SECONDS = 120;
const KEY_SETTING = 'slide_download_key';

/**
 * The signing key lives in the database, so every API process (and every node of a hospital group)
 * accepts a link another one signed. The first process to need it creates it; a concurrent one keeps
 * whichever row won.
 */
export async function downloadKey(db: Db): Promise<Buffer> {
  await db.insertInto('settings').values({ key: KEY_SETTING, value: randomBytes(32).toString('hex'), is_public: 0, updated_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('key').doNothing()).execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', KEY_SETTING).executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'hex');
}

const mac = (key: Buffer, slideId: number, userId: number, expires: number) =>
  createHmac('sha256', key).update(`${slideId}.${userId}.${expires}`).digest('base64url');

/** Query parameters of a link that lets `userId` fetch slide `slideId` until `expires` (unix seconds). */
export function signDownload(key: Buffer, slideId: number, userId: number, nowSeconds: number) {
  const expires = nowSeconds + DOWNLOAD_LINK_SECONDS;
  return { user: userId, expires, sig: mac(key, slideId, userId, expires) };
}

/** True when the signature is ours for these values and the link has not expired. */
export function verifyDownload(key: Buffer, slideId: number, userId: number, expires: number, sig: string, nowSeconds: number): boolean {
  if (!(expires >= nowSeconds)) return false;
  const expected = Buffer.from(mac(key, slideId, userId, expires));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
