import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * The sealed-secret format migration 0033 writes, as security/sealed-secrets.ts defined it then: AES-256-GCM,
 * stored as `enc:v1:<iv>:<tag>:<ciphertext>` (base64url). A copy, so the migration keeps writing v1 whatever
 * the live module later does; the key is the installation's, handed in by the registry.
 */
const PREFIX = 'enc:v1:';
const isSealed = (value: string) => value.startsWith(PREFIX);

/** The value sealed; the empty string stays empty (no secret set), a sealed one is left as it is. */
export function sealV1(key: Buffer, plain: string): string {
  if (!plain || isSealed(plain)) return plain;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${PREFIX}${[iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join(':')}`;
}

/** The plaintext of a stored value. Throws when it was sealed with another key or altered. */
export function openV1(key: Buffer, stored: string): string {
  if (!isSealed(stored)) return stored;
  const [iv, tag, body] = stored.slice(PREFIX.length).split(':').map((p) => Buffer.from(p, 'base64url'));
  if (!iv || !tag || !body) throw new Error('a stored secret cannot be opened: it is not a v1 sealed value');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('a stored secret cannot be opened: it was sealed with another key or altered');
  }
}
