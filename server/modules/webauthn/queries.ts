import type { Db } from '../../db/connect.js';
import { sweepChallenges } from '../auth/challenge.js';

/**
 * A WebAuthn challenge lives in `auth_challenges` with a purpose of its own in `key_id` (no RSA key is named so,
 * so a password nonce and a key challenge can never be spent for each other). Two minutes: the browser's prompt
 * times out after one. Registration challenges name their user: another account cannot spend them.
 */
export const CHALLENGE_LIFETIME_MS = 120_000;
export const registerPurpose = (userId: number) => `webauthn:register:${userId}`;
export const LOGIN_PURPOSE = 'webauthn:login';

export async function storeChallenge(db: Db, challenge: string, purpose: string, now = new Date()): Promise<void> {
  // Anyone may ask for a sign-in challenge: expired ones go first, as with password nonces (auth/challenge.ts).
  await sweepChallenges(db);
  await db.insertInto('auth_challenges')
    .values({ nonce: challenge, key_id: purpose, expires_at: new Date(now.getTime() + CHALLENGE_LIFETIME_MS).toISOString(), used_at: null })
    .execute();
}

/** Spends a challenge: one DELETE decides which of two racing requests gets it; a replay finds nothing. */
export async function spendChallenge(db: Db, challenge: string, purpose: string, now = new Date()): Promise<boolean> {
  const spent = await db.deleteFrom('auth_challenges')
    .where('nonce', '=', challenge).where('key_id', '=', purpose).where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return Number(spent.numDeletedRows) === 1;
}

export interface StoredCredential {
  id: number;
  user_id: number;
  credential_id: string;
  public_key: string;
  counter: number;
  user_handle: string;
  transports: string[];
  name: string;
  created_at: string;
  last_used_at: string | null;
}

type Row = Omit<StoredCredential, 'counter' | 'transports'> & { counter: number | string; transports: string };

const fromRow = (r: Row): StoredCredential => ({ ...r, counter: Number(r.counter), transports: parseTransports(r.transports) });

function parseTransports(text: string): string[] {
  try {
    const list = JSON.parse(text);
    return Array.isArray(list) ? list.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

const COLUMNS = ['id', 'user_id', 'credential_id', 'public_key', 'counter', 'user_handle', 'transports', 'name', 'created_at', 'last_used_at'] as const;

export async function credentialsOf(db: Db, userId: number): Promise<StoredCredential[]> {
  const rows = await db.selectFrom('webauthn_credentials').select(COLUMNS).where('user_id', '=', userId).orderBy('id').execute();
  return rows.map(fromRow);
}

export async function findCredential(db: Db, credentialId: string): Promise<StoredCredential | undefined> {
  const row = await db.selectFrom('webauthn_credentials').select(COLUMNS).where('credential_id', '=', credentialId).executeTakeFirst();
  return row ? fromRow(row) : undefined;
}

export interface NewCredential {
  userId: number; credentialId: string; publicKey: string; counter: number; userHandle: string; transports: string[]; name: string;
}

/** The new row's id, or null when that credential is already registered (to anyone: ids are unique). */
export async function insertCredential(db: Db, c: NewCredential, now = new Date()): Promise<number | null> {
  const row = await db.insertInto('webauthn_credentials').values({
    user_id: c.userId, credential_id: c.credentialId, public_key: c.publicKey, counter: c.counter, user_handle: c.userHandle,
    transports: JSON.stringify(c.transports), name: c.name, created_at: now.toISOString(), last_used_at: null,
  }).onConflict((oc) => oc.column('credential_id').doNothing()).returning('id').executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Records a use: the authenticator's new counter, only over the one the verification read, so of two uses that
 * somehow passed with the same count one is refused (a cloned key shows up as a counter that does not grow).
 */
export async function recordUse(db: Db, id: number, previous: number, next: number, now = new Date()): Promise<boolean> {
  const res = await db.updateTable('webauthn_credentials').set({ counter: next, last_used_at: now.toISOString() })
    .where('id', '=', id).where('counter', '=', previous).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Deletes one of the caller's own keys; false when it is not theirs or not there (the route answers 404 alike). */
export async function deleteOwnCredential(db: Db, userId: number, id: number): Promise<boolean> {
  const res = await db.deleteFrom('webauthn_credentials').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}
