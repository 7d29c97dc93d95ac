import type { SsoConfigTable } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';

/** Who an enterprise messaging app says signed in, by the fields our users can be matched on. */
export interface MessagingIdentity { name?: string; mobile?: string; email?: string }

/**
 * One enterprise messaging app's "code → user" exchange. The browser comes back from the app with `?code=`; the
 * adapter trades it, server to server, for the user's details. New apps are added to ADAPTERS by kind.
 */
export interface MessagingAdapter {
  /** Where the browser asks the app for an auth code (auth/auth_code); the app sends it back to `redirectUri` with `state`. */
  authorizeUrl(config: Pick<SsoConfigTable, 'im_authorize_url' | 'im_app_key'>, redirectUri: string, state: string): string;
  identify(config: Pick<SsoConfigTable, 'im_base_url' | 'im_app_key' | 'im_app_secret'>, code: string): Promise<MessagingIdentity>;
}

const TIMEOUT_MS = 10_000;

async function getJson(url: string, init: RequestInit): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch {
    throw new AppError(502, 'sso.provider_unreachable');
  }
  const body = await res.json().catch(() => null) as Record<string, unknown> | null;
  // The vendor refusing the code (spent, expired, forged) is the user's sign-in failing, not our fault.
  if (!res.ok || !body || typeof body !== 'object') throw new AppError(401, 'sso.rejected');
  return body;
}

const text = (v: unknown) => (typeof v === 'string' && v.length <= 200 ? v : undefined);

/**
 * DingTalk's OAuth 2 "user access token" and "me" endpoints (api.dingtalk.com): POST /v1.0/oauth2/userAccessToken
 * with the app's key and secret and the code, then GET /v1.0/contact/users/me with the token. The base address is a
 * setting, so a private deployment (or the tests' loopback stand-in) is reached the same way.
 */
export const dingTalkAdapter: MessagingAdapter = {
  // DingTalk's OAuth 2 sign-in page (login.dingtalk.com/oauth2/auth); it comes back with ?authCode=…&state=….
  authorizeUrl(config, redirectUri, state) {
    const url = new URL(config.im_authorize_url || 'https://login.dingtalk.com/oauth2/auth');
    for (const [k, v] of Object.entries({ redirect_uri: redirectUri, response_type: 'code', client_id: config.im_app_key, scope: 'openid', state, prompt: 'consent' })) {
      url.searchParams.set(k, v);
    }
    return url.href;
  },
  async identify(config, code) {
    const token = await getJson(`${config.im_base_url}/v1.0/oauth2/userAccessToken`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: config.im_app_key, clientSecret: config.im_app_secret, code, grantType: 'authorization_code' }),
    });
    const accessToken = text(token.accessToken);
    if (!accessToken) throw new AppError(401, 'sso.rejected');
    const me = await getJson(`${config.im_base_url}/v1.0/contact/users/me`, { headers: { 'x-acs-dingtalk-access-token': accessToken } });
    return { name: text(me.nick), mobile: text(me.mobile), email: text(me.email) };
  },
};

export const ADAPTERS: Readonly<Record<string, MessagingAdapter>> = { dingtalk: dingTalkAdapter };
