import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import { hashToken } from '../auth/tokens.js';

/** A sign-in at the provider must come back within this; longer is a stale tab, refused. */
export const FLOW_TTL_MS = 10 * 60_000;
/** The one-time code travels in the browser's address bar for one hop: seconds, not minutes. */
export const ONE_TIME_CODE_TTL_MS = 60_000;

export interface PendingFlow { state: string; hospital_id: number; nonce: string; code_verifier: string; redirect: string }

const random = () => randomBytes(32).toString('base64url');

/** Keeps state, nonce and PKCE verifier on the server; the browser carries only the state (and a cookie of it). */
export async function createFlow(db: Db, flow: Omit<PendingFlow, 'state' | 'nonce'>): Promise<PendingFlow> {
  const now = Date.now();
  await db.deleteFrom('sso_flows').where('expires_at', '<=', new Date(now).toISOString()).execute();
  const row = { ...flow, state: random(), nonce: random(), expires_at: new Date(now + FLOW_TTL_MS).toISOString() };
  await db.insertInto('sso_flows').values(row).execute();
  return row;
}

/** Takes a flow once: deleted as it is read, so a replayed callback finds nothing. Null: unknown, used or expired. */
export async function takeFlow(db: Db, state: string): Promise<PendingFlow | null> {
  const row = await db.deleteFrom('sso_flows').where('state', '=', state).returningAll().executeTakeFirst();
  if (!row || row.expires_at <= new Date().toISOString()) return null;
  return row;
}

/** A one-time code for a user who has just signed in at the provider; only its hash is stored. */
export async function issueOneTimeCode(db: Db, userId: number, hospitalId: number, idToken: string | null = null): Promise<{ code: string; expiresIn: number }> {
  const now = Date.now();
  await db.deleteFrom('sso_codes').where('expires_at', '<=', new Date(now).toISOString()).execute();
  const code = random();
  await db.insertInto('sso_codes').values({ code_hash: hashToken(code), user_id: userId, hospital_id: hospitalId, expires_at: new Date(now + ONE_TIME_CODE_TTL_MS).toISOString(), id_token: idToken }).execute();
  return { code, expiresIn: ONE_TIME_CODE_TTL_MS / 1000 };
}

/** Spends a one-time code (single use: deleted as it is read). Null: unknown, spent or expired. */
export async function takeOneTimeCode(db: Db, code: string): Promise<{ user_id: number; hospital_id: number; id_token: string | null } | null> {
  const row = await db.deleteFrom('sso_codes').where('code_hash', '=', hashToken(code)).returningAll().executeTakeFirst();
  if (!row || row.expires_at <= new Date().toISOString()) return null;
  return { user_id: row.user_id, hospital_id: row.hospital_id, id_token: row.id_token };
}
