import type { Db } from '../../db/connect.js';
import type { SecretBox } from '../../security/sealed-secrets.js';
import { loadSsoConfig } from './config.js';
import { endSessionUrl } from './oidc.js';

/**
 * Sessions that came from OpenID Connect keep the provider's id token (sso_sessions), so that logging out of DSMS
 * also ends the sign-in at the provider: otherwise the next "Sign in with …" would pass straight through on the
 * provider's own session, which on a shared ward computer signs the next person in as the last one.
 */
export async function rememberProviderSession(db: Db, tokenHash: string, hospitalId: number, idToken: string, ttlSeconds: number): Promise<void> {
  const now = Date.now();
  await db.deleteFrom('sso_sessions').where('expires_at', '<=', new Date(now).toISOString()).execute();
  await db.insertInto('sso_sessions').values({ token_hash: tokenHash, hospital_id: hospitalId, id_token: idToken, expires_at: new Date(now + ttlSeconds * 1000).toISOString() }).execute();
}

/** Forgets a session's provider sign-in (the session ended some other way: lock-out, switch of account). */
export async function forgetProviderSession(db: Db, tokenHash: string): Promise<{ hospital_id: number; id_token: string; expires_at: string } | undefined> {
  return db.deleteFrom('sso_sessions').where('token_hash', '=', tokenHash).returning(['hospital_id', 'id_token', 'expires_at']).executeTakeFirst();
}

/**
 * At logout: where to send the browser so the provider ends its sign-in too (its end_session_endpoint with
 * id_token_hint and post_logout_redirect_uri = PUBLIC_URL/login), or null for a session that did not come from a
 * provider, a provider without that endpoint, or one that cannot be reached (the DSMS session is ended regardless).
 */
export async function providerSignOutUrl(db: Db, secrets: SecretBox, tokenHash: string, publicUrl: string, warn: (err: unknown) => void): Promise<string | null> {
  const row = await forgetProviderSession(db, tokenHash);
  if (!row || row.expires_at <= new Date().toISOString()) return null;
  const config = await loadSsoConfig(db, row.hospital_id);
  if (!config.issuer || !config.client_id) return null;
  try {
    return await endSessionUrl(config, secrets, row.id_token, new URL('/login', publicUrl).href);
  } catch (error) {
    warn(error);
    return null;
  }
}
