import { createHash, randomBytes } from 'node:crypto';

/**
 * A scanner's API key: `dsk_` and 32 random bytes (base64url). Only its SHA-256 is stored (a key has 256 bits of
 * entropy, so a fast hash suffices, unlike a password) with its first characters to tell keys apart in lists.
 */
export function newScannerKey(): { key: string; hash: string; prefix: string } {
  const key = `dsk_${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashScannerKey(key), prefix: key.slice(0, 10) };
}

export const hashScannerKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** The shape of a key we issue; anything else is refused before the database is asked. */
export const looksLikeKey = (key: unknown): key is string => typeof key === 'string' && /^dsk_[A-Za-z0-9_-]{43}$/.test(key);
