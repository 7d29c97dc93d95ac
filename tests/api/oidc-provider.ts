import type { Server } from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from './server-process.js';

/**
 * A real OpenID Connect provider (oidc-provider, the certified implementation) on loopback, for the single sign-on
 * tests: discovery, authorization with its development login and consent pages, code + PKCE, signed id tokens. Any
 * login name signs in (the development pages take any password); the name is the account's preferred_username.
 */
export async function startOidcProvider(client: { redirectUri: string; clientId: string; clientSecret: string; postLogoutRedirectUri?: string }) {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [{
      client_id: client.clientId, client_secret: client.clientSecret, redirect_uris: [client.redirectUri],
      // RP-initiated logout (enabled by default): where the provider may send the browser after signing it out.
      post_logout_redirect_uris: client.postLogoutRedirectUri ? [client.postLogoutRedirectUri] : [],
      grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic',
    }],
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, preferred_username: sub, name: `Dr. ${sub}` }) }),
    claims: { openid: ['sub'], profile: ['preferred_username', 'name'] },
    // The id token carries the profile claims, so the app needs no userinfo call.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ['loopback-test-provider-only'] },
  });
  // Its own errors (a refused client, a bad request) are what some tests provoke; they stay out of the output.
  provider.on('server_error', () => {});
  const server: Server = await new Promise((resolve) => {
    const s = provider.listen(port, '127.0.0.1', () => resolve(s));
  });
  return {
    issuer,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** A browser's cookies, per host, for walking through the provider's pages without one. */
export class CookieJar {
  private jar = new Map<string, Map<string, string>>();
  store(url: URL, res: Response) {
    const cookies = this.jar.get(url.host) ?? new Map<string, string>();
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1));
    }
    this.jar.set(url.host, cookies);
  }
  header(url: URL) {
    return [...(this.jar.get(url.host) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * Does at the provider what a person does in a browser: opens the authorization address, signs in as `login` on the
 * development login page, consents, and answers the address the provider sends the browser back to (the app's
 * callback with code, state and iss).
 */
export async function signInAtProvider(authorizationUrl: string, login: string, stopAt: string, jar = new CookieJar(), seen: string[] = []): Promise<URL> {
  let url = new URL(authorizationUrl);
  let form: Record<string, string> | null = null;
  for (let hop = 0; hop < 20; hop++) {
    const res: Response = await fetch(url, {
      method: form ? 'POST' : 'GET', redirect: 'manual',
      headers: { cookie: jar.header(url), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    jar.store(url, res);
    form = null;
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url);
      if (url.href.startsWith(stopAt)) return url;
      continue;
    }
    const html: string = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`unexpected provider page ${res.status}: ${html.slice(0, 300)}`);
    url = new URL(action, url);
    seen.push(prompt);
    form = prompt === 'login' ? { prompt, login, password: 'any' } : { prompt };
  }
  throw new Error('the provider never sent the browser back');
}

/**
 * Does at the provider what a person does after the app sent the browser to its end_session_endpoint: answers
 * "Yes, sign me out" on its logout page; answers where the provider then sends the browser.
 */
export async function signOutAtProvider(logoutUrl: string, jar: CookieJar): Promise<URL> {
  const url = new URL(logoutUrl);
  const page = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header(url) } });
  jar.store(url, page);
  const html = await page.text();
  const action = /<form[^>]*id="op.logoutForm"[^>]*action="([^"]+)"|<form[^>]*action="([^"]+)"[^>]*id="op.logoutForm"/.exec(html);
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
  if (!action || !xsrf) throw new Error(`unexpected provider logout page ${page.status}: ${html.slice(0, 300)}`);
  const confirm = new URL(action[1] ?? action[2], url);
  const res = await fetch(confirm, {
    method: 'POST', redirect: 'manual',
    headers: { cookie: jar.header(confirm), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
  });
  jar.store(confirm, res);
  const location = res.headers.get('location');
  if (!location) throw new Error(`the provider did not send the browser back after logout (${res.status})`);
  return new URL(location, confirm);
}
