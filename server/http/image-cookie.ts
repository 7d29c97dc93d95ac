import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * An <img> or a tile viewer cannot send the Authorization header, and a session token in a URL ends up in
 * request logs, proxy logs, browser history and Referer headers. So login also sets the session token in this
 * cookie: HttpOnly (page scripts cannot read it), SameSite=Strict (no other site's page sends it), Secure over
 * https, and scoped by Path to the image routes, so no other request carries it. Only the GET image routes
 * read it (tiles, Deep Zoom, IIIF, label/macro, thumbnails): they change nothing, so the cookie opens no CSRF
 * hole. It lives as long as the browser (no Max-Age) or until logout, which clears it.
 */
export const IMAGE_COOKIE = 'dsms_image';

/** The path prefixes of the image routes; one cookie per prefix (a cookie has a single Path). */
export const IMAGE_COOKIE_PATHS = ['/api/tiles', '/api/iiif', '/api/data/kfb/thumb'] as const;

const PREFIX = `${IMAGE_COOKIE}=`;

/**
 * The image cookie's value in a Cookie header, or undefined. Read by hand (one indexOf and a slice): it runs for
 * every tile, on the fast lane too. The first match wins, which is the cookie with the most specific path.
 */
export function imageCookieToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  let at = header.indexOf(PREFIX);
  // A longer name ending in ours (`xdsms_image=`) is not ours: the name must start the header or follow `; `.
  while (at > 0 && header.charCodeAt(at - 1) !== 0x20 && header.charCodeAt(at - 1) !== 0x3b) at = header.indexOf(PREFIX, at + 1);
  if (at < 0) return undefined;
  const start = at + PREFIX.length;
  const end = header.indexOf(';', start);
  return (end < 0 ? header.slice(start) : header.slice(start, end)).trim() || undefined;
}

/** Set-Cookie values that give the image routes this token (`null`: remove it). */
export function imageCookieHeaders(token: string | null, secure: boolean): string[] {
  const tail = `; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}${token === null ? '; Max-Age=0' : ''}`;
  return IMAGE_COOKIE_PATHS.map((p) => `${PREFIX}${token ?? ''}; Path=${p}${tail}`);
}

/** Every route that starts a session: the password login, the QR login, a security key and the outside sign-ins (single sign-on, messaging app). */
const LOGINS = new Set(['/api/auth/login', '/api/ca/login/check', '/api/auth/webauthn/login', '/api/system_management/users/switch', '/api/auth/sso_login_v2', '/api/auth/sso_login', '/api/auth/ulogin', '/api/auth/dingding_login']);
const LOGOUT = '/api/auth/logout';

/**
 * Sets the image cookie on a successful login and clears it on logout, without touching the auth routes: the
 * hooks are attached to those two routes only as they are declared, so no other request pays for them.
 * Register before the auth routes. `alwaysSecure` (PUBLIC_URL is https): Secure even when a proxy in front
 * terminates TLS and TRUST_PROXY is off; otherwise Secure when the request came over https.
 */
export function registerImageCookie(app: FastifyInstance, alwaysSecure = false): void {
  const secure = (request: FastifyRequest) => alwaysSecure || request.protocol === 'https';
  const setOnLogin = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const token = (payload as { data?: { access_token?: unknown } } | null)?.data?.access_token;
    if (reply.statusCode === 200 && typeof token === 'string') reply.header('set-cookie', imageCookieHeaders(token, secure(request)));
    return payload;
  };
  const clearOnLogout = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    reply.header('set-cookie', imageCookieHeaders(null, secure(request)));
    return payload;
  };
  app.addHook('onRoute', (route) => {
    const methods = ([] as string[]).concat(route.method);
    if (!methods.includes('POST')) return;
    if (LOGINS.has(route.url)) route.preSerialization = [...hooks(route.preSerialization), setOnLogin];
    if (route.url === LOGOUT) route.onSend = [...hooks(route.onSend), clearOnLogout];
  });
}

function hooks<T>(h: T | T[] | undefined): T[] {
  return h === undefined ? [] : Array.isArray(h) ? h : [h];
}
