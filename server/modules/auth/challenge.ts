import { constants, createHash, generateKeyPair, privateDecrypt, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import type { Db } from '../../db/connect.js';

const KEY_LIFETIME_MS = 24 * 3600 * 1000;
export const CHALLENGE_LIFETIME_MS = 5 * 60 * 1000;

export interface Challenge {
  key_id: string;
  public_key: string;
  nonce: string;
  expires_in: number;
}

/**
 * Passwords travel as RSA-OAEP(SHA-256) of `nonce:password`. Keys live in the database so every API
 * node decrypts what any node issued; a key is rotated daily and older keys still decrypt until their
 * challenges have expired.
 */
export async function issueChallenge(db: Db): Promise<Challenge> {
  const key = await currentKey(db);
  const nonce = randomBytes(16).toString('hex');
  // Anyone may ask for a challenge: each issue first deletes the expired ones (an index range, usually empty),
  // so the table holds at most the last five minutes of challenges, which the rate limit bounds per address.
  await sweepChallenges(db);
  await db.insertInto('auth_challenges')
    .values({ nonce, key_id: key.key_id, expires_at: new Date(Date.now() + CHALLENGE_LIFETIME_MS).toISOString(), used_at: null })
    .execute();
  return { key_id: key.key_id, public_key: key.public_key, nonce, expires_in: CHALLENGE_LIFETIME_MS / 1000 };
}

export type OpenResult = { ok: true; password: string } | { ok: false; reason: 'undecryptable' | 'challenge_invalid' };

/** Decrypts and spends the challenge: a nonce opens exactly one request. */
export async function openSealedPassword(db: Db, keyId: string, sealed: string): Promise<OpenResult> {
  const key = await db.selectFrom('auth_keys').selectAll().where('key_id', '=', keyId).executeTakeFirst();
  if (!key) return { ok: false, reason: 'challenge_invalid' };
  let plain: string;
  try {
    plain = privateDecrypt(
      { key: key.private_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(sealed, 'base64'),
    ).toString('utf8');
  } catch {
    return { ok: false, reason: 'undecryptable' };
  }
  const sep = plain.indexOf(':');
  if (sep < 0) return { ok: false, reason: 'undecryptable' };
  const nonce = plain.slice(0, sep);
  const now = new Date().toISOString();
  // Spending deletes the row: one statement decides which of two concurrent requests gets it, and nothing is left to sweep.
  const spent = await db.deleteFrom('auth_challenges')
    .where('nonce', '=', nonce)
    .where('key_id', '=', keyId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(spent.numDeletedRows) !== 1) return { ok: false, reason: 'challenge_invalid' };
  return { ok: true, password: plain.slice(sep + 1) };
}

/** A challenge is useless once expired; sweeping keeps the table small. */
export async function sweepChallenges(db: Db): Promise<void> {
  await db.deleteFrom('auth_challenges').where('expires_at', '<=', new Date().toISOString()).execute();
}

type CachedKey = { key_id: string; public_key: string; created: number };
/** Per database, because tests run several apps on different databases in one process. */
const cache = new WeakMap<Db, CachedKey>();

/** A key being found or made: concurrent first challenges share it rather than each generating an RSA key. */
const pending = new WeakMap<Db, Promise<CachedKey>>();

/**
 * Makes sure a current key exists: the setup calls it, so a first start's first challenge does not wait for a key
 * to be generated (it runs on the thread pool, beside the seed).
 */
export async function ensureChallengeKey(db: Db): Promise<void> {
  await currentKey(db);
}

function currentKey(db: Db): Promise<CachedKey> {
  const hit = cache.get(db);
  if (hit && Date.now() - hit.created < KEY_LIFETIME_MS) return Promise.resolve(hit);
  let finding = pending.get(db);
  if (!finding) {
    finding = findOrMakeKey(db).finally(() => pending.delete(db));
    pending.set(db, finding);
  }
  return finding;
}

async function findOrMakeKey(db: Db): Promise<CachedKey> {
  const since = new Date(Date.now() - KEY_LIFETIME_MS).toISOString();
  const row = await db.selectFrom('auth_keys').select(['key_id', 'public_key', 'created_at'])
    .where('created_at', '>', since).orderBy('created_at', 'desc').executeTakeFirst();
  if (row) {
    const key = { key_id: row.key_id, public_key: row.public_key, created: Date.parse(row.created_at) };
    cache.set(db, key);
    return key;
  }
  // Off the event loop: a 2048-bit key takes a worker 50-200 ms of CPU, which would hold every other request.
  const { publicKey, privateKey } = await promisify(generateKeyPair)('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const key_id = createHash('sha256').update(publicKey).digest('hex').slice(0, 16);
  const created_at = new Date().toISOString();
  await db.insertInto('auth_keys').values({ key_id, public_key: publicKey, private_key: privateKey, created_at }).execute();
  const key = { key_id, public_key: publicKey, created: Date.parse(created_at) };
  cache.set(db, key);
  return key;
}
