import { randomBytes } from 'node:crypto';
import type { Db } from '../db/connect.js';

/** A key signs for a day, as the login keys do (modules/auth/challenge.ts); then a new one takes over. */
export const KEY_SIGNS_MS = 24 * 3600 * 1000;

export interface SigningKey {
  keyId: string;
  secret: Buffer;
  createdMs: number;
}

/** True while `key` is the one new signatures use. */
export const keySigns = (createdMs: number, nowMs: number) => nowMs - createdMs < KEY_SIGNS_MS;

/**
 * True when a token expiring at `expiresMs` could have been signed by a key created at `createdMs`: signed
 * while the key was current, it expires at most `lifetimeMs` later. So a retired key keeps verifying exactly
 * the links it signed until they have expired, and nothing after.
 */
export const keyCovers = (createdMs: number, expiresMs: number, lifetimeMs: number) => expiresMs <= createdMs + KEY_SIGNS_MS + lifetimeMs;

/**
 * HMAC secrets of one purpose (e.g. slide download links), in their own table that no API reads: never in
 * `settings`. They live in the database so every API process and node verifies what another one signed.
 * A key is used for a day; older keys are kept while tokens they signed may still be valid (`lifetimeMs`),
 * then deleted. Two processes rotating at once each make a key; both verify, which is harmless.
 */
export class SigningKeys {
  /** Keys never change once made; a cached one is dropped by the time rules, not by the database. */
  private readonly known = new Map<string, SigningKey>();
  private newest: SigningKey | undefined;

  constructor(private readonly db: Db, private readonly purpose: string, private readonly lifetimeMs: number) {}

  /** The key to sign with now, made when there is none younger than a day. */
  async current(nowMs = Date.now()): Promise<SigningKey> {
    if (this.newest && keySigns(this.newest.createdMs, nowMs)) return this.newest;
    const since = new Date(nowMs - KEY_SIGNS_MS).toISOString();
    const row = await this.db.selectFrom('signing_keys').select(['key_id', 'secret', 'created_at'])
      .where('purpose', '=', this.purpose).where('created_at', '>', since)
      .orderBy('created_at', 'desc').executeTakeFirst();
    const key = row ? this.remember(row) : await this.create(nowMs);
    this.newest = key;
    return key;
  }

  /** A key that may still verify at `nowMs`; undefined when unknown or retired longer than a token lives. */
  async byId(keyId: string, nowMs = Date.now()): Promise<SigningKey | undefined> {
    let key = this.known.get(keyId);
    if (!key) {
      const row = await this.db.selectFrom('signing_keys').select(['key_id', 'secret', 'created_at'])
        .where('key_id', '=', keyId).where('purpose', '=', this.purpose).executeTakeFirst();
      if (!row) return undefined;
      key = this.remember(row);
    }
    return keyCovers(key.createdMs, nowMs, this.lifetimeMs) ? key : undefined;
  }

  private async create(nowMs: number): Promise<SigningKey> {
    const row = { key_id: randomBytes(8).toString('hex'), purpose: this.purpose, secret: randomBytes(32).toString('hex'), created_at: new Date(nowMs).toISOString() };
    await this.db.insertInto('signing_keys').values(row).execute();
    // Keys past any token they signed are useless; deleting them keeps the table at two or three rows.
    const expired = new Date(nowMs - KEY_SIGNS_MS - this.lifetimeMs).toISOString();
    await this.db.deleteFrom('signing_keys').where('purpose', '=', this.purpose).where('created_at', '<', expired).execute();
    for (const [id, key] of this.known) if (!keyCovers(key.createdMs, nowMs, this.lifetimeMs)) this.known.delete(id);
    return this.remember(row);
  }

  private remember(row: { key_id: string; secret: string; created_at: string }): SigningKey {
    const key = { keyId: row.key_id, secret: Buffer.from(row.secret, 'hex'), createdMs: Date.parse(row.created_at) };
    this.known.set(key.keyId, key);
    return key;
  }
}
