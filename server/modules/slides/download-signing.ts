import { createHmac, timingSafeEqual } from 'node:crypto';
import { keyCovers } from '../../http/signing-keys.js';

/** How long a download link works: long enough to click, short enough that a copied link soon dies. */
export const DOWNLOAD_LINK_SECONDS = 120;

/** Which rotating key set signs download links (http/signing-keys.ts). */
export const DOWNLOAD_KEY_PURPOSE = 'slide_download';

export interface DownloadLink {
  kid: string;
  user: number;
  expires: number;
  sig: string;
}

const mac = (secret: Buffer, kid: string, slideId: number, userId: number, expires: number) =>
  createHmac('sha256', secret).update(`${kid}.${slideId}.${userId}.${expires}`).digest('base64url');

/** Query parameters of a link that lets `userId` fetch slide `slideId` for DOWNLOAD_LINK_SECONDS from `nowSeconds`. */
export function signDownload(key: { keyId: string; secret: Buffer }, slideId: number, userId: number, nowSeconds: number): DownloadLink {
  const expires = nowSeconds + DOWNLOAD_LINK_SECONDS;
  return { kid: key.keyId, user: userId, expires, sig: mac(key.secret, key.keyId, slideId, userId, expires) };
}

/**
 * True when the signature is this key's for these values, the link has not expired, and its expiry is one
 * we could have issued: no further ahead than a link's lifetime (a stolen key cannot mint a ten-year link),
 * and within what the key covered while it signed (a retired key verifies only its own last links).
 */
export function verifyDownload(key: { keyId: string; secret: Buffer; createdMs: number }, slideId: number, link: DownloadLink, nowSeconds: number): boolean {
  const { expires } = link;
  if (!Number.isSafeInteger(expires) || expires < nowSeconds || expires > nowSeconds + DOWNLOAD_LINK_SECONDS) return false;
  if (link.kid !== key.keyId || !keyCovers(key.createdMs, expires * 1000, DOWNLOAD_LINK_SECONDS * 1000)) return false;
  const expected = Buffer.from(mac(key.secret, key.keyId, slideId, link.user, expires));
  const given = Buffer.from(link.sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
