import { randomBytes } from 'node:crypto';
import type { Configuration } from 'openid-client';
import type { SsoConfigTable } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { SecretBox } from '../../security/sealed-secrets.js';
import { isLoopback } from './config.js';

/** Seconds a provider has to answer discovery or the code exchange before the sign-in is refused. */
const PROVIDER_TIMEOUT_S = 10;

/** openid-client, loaded by the first single sign-on call, not at every process's start. */
const openid = () => import('openid-client');

/**
 * The provider's metadata, fetched once per configuration (hospital and the time it was saved): a changed setting
 * is a new key, so it is fetched again. A failed discovery is not kept, so the next sign-in tries anew.
 */
const discovered = new Map<string, Promise<Configuration>>();

function configurationFor(config: SsoConfigTable, secrets: SecretBox): Promise<Configuration> {
  const key = `${config.hospital_id}@${config.updated_at}`;
  let found = discovered.get(key);
  if (!found) {
    const issuer = new URL(config.issuer);
    // config.ts only lets plain http through for a provider on this machine.
    const insecure = issuer.protocol === 'http:' && isLoopback(issuer.hostname);
    const clientSecret = secrets.open(config.client_secret) || undefined;
    found = openid().then((oidc) => oidc.discovery(issuer, config.client_id, { client_secret: clientSecret }, undefined, {
      execute: insecure ? [oidc.allowInsecureRequests] : [], timeout: PROVIDER_TIMEOUT_S,
    }));
    for (const k of discovered.keys()) if (k.startsWith(`${config.hospital_id}@`)) discovered.delete(k);
    discovered.set(key, found);
    found.catch(() => discovered.delete(key));
  }
  return found;
}

const unreachable = () => new AppError(502, 'sso.provider_unreachable');

/** The provider's authorization address for one pending sign-in: code flow, PKCE S256, state and nonce. */
export async function authorizationUrl(config: SsoConfigTable, secrets: SecretBox, redirectUri: string, flow: { state: string; nonce: string; code_verifier: string }): Promise<string> {
  const configuration = await configurationFor(config, secrets).catch(() => { throw unreachable(); });
  const oidc = await openid();
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri, scope: 'openid profile email', response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(flow.code_verifier), code_challenge_method: 'S256',
    state: flow.state, nonce: flow.nonce,
  });
  return url.href;
}

/** A PKCE code verifier: 32 random bytes, base64url (RFC 7636 §4.1; what openid-client's randomPKCECodeVerifier makes). */
export const newCodeVerifier = () => randomBytes(32).toString('base64url');

/**
 * Trades the code for tokens and checks the id token (signature, issuer, audience, expiry, nonce) and the state;
 * answers the id token's claims. Any failure is one refusal: the details go to the server log, not the browser.
 */
export async function finishSignIn(config: SsoConfigTable, secrets: SecretBox, callbackUrl: URL, flow: { state: string; nonce: string; code_verifier: string }): Promise<{ claims: Record<string, unknown>; idToken: string | null }> {
  const configuration = await configurationFor(config, secrets).catch(() => { throw unreachable(); });
  const oidc = await openid();
  const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
    pkceCodeVerifier: flow.code_verifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new AppError(401, 'sso.rejected');
  return { claims: claims as Record<string, unknown>, idToken: tokens.id_token ?? null };
}

/**
 * Where the browser ends its session at the provider (OpenID Connect RP-initiated logout): the provider's
 * end_session_endpoint with the id token as id_token_hint and where to come back to. Null when the provider
 * declares no such endpoint.
 */
export async function endSessionUrl(config: SsoConfigTable, secrets: SecretBox, idToken: string, postLogoutRedirectUri: string): Promise<string | null> {
  const configuration = await configurationFor(config, secrets).catch(() => { throw unreachable(); });
  if (!configuration.serverMetadata().end_session_endpoint) return null;
  const oidc = await openid();
  return oidc.buildEndSessionUrl(configuration, { id_token_hint: idToken, post_logout_redirect_uri: postLogoutRedirectUri }).href;
}
