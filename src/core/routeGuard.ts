/**
 * The route guard of spec §4 as a pure decision; the router component carries it out.
 * Order matters and follows the spec: rewrites first, then external logins, then the token checks.
 */
export interface GuardInput {
  path: string;
  query: Record<string, string>;
  hasToken: boolean;
  userLoaded: boolean;
  locked: boolean;
  /** Path shown when the screen was locked. */
  lockedPath?: string;
  hasSsoCookie: boolean;
}

export type GuardDecision =
  | { action: 'allow' }
  | { action: 'redirect'; to: string }
  | { action: 'refuse'; stayAt: string }
  | { action: 'loadUser' }
  | { action: 'externalLogin'; kind: 'code' | 'sso' | 'stoken'; value: string; redirect: string };

/** Paths reachable without a session. */
export const STATIC_PATHS = ['/login', '/404', '/error', '/update-log', '/share/view', '/consult/answer', '/pdf'];

export function isStaticPath(path: string): boolean {
  return STATIC_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
}

export function decideRoute(input: GuardInput): GuardDecision {
  const { path, query } = input;
  if (path === '/inner/view') return { action: 'redirect', to: rewriteInnerView(query) };

  if (query.code) return { action: 'externalLogin', kind: 'code', value: query.code, redirect: query.redirect || '/manage' };
  if (query.stoken) return { action: 'externalLogin', kind: 'stoken', value: query.stoken, redirect: query.redirect || '/manage' };

  if (!input.hasToken) {
    if (input.hasSsoCookie) return { action: 'externalLogin', kind: 'sso', value: 'DD_TOKEN', redirect: fullPath(path, query) };
    if (isStaticPath(path)) return { action: 'allow' };
    return { action: 'redirect', to: `/login?redirect=${encodeURIComponent(fullPath(path, query))}` };
  }

  if (!input.userLoaded) return { action: 'loadUser' };
  if (input.locked && input.lockedPath && path !== input.lockedPath) return { action: 'refuse', stayAt: input.lockedPath };
  if (path === '/login' || path === '/') return { action: 'redirect', to: query.redirect && path === '/login' ? query.redirect : '/manage' };
  return { action: 'allow' };
}

/** Query keys /inner/view passes through unchanged; every other value is URI-decoded once (spec §4). */
const KEEP_AS_IS = ['token', 'uuid', 'file_index', 'sync', 'lis_slide_id', 'slide_id'];

export function rewriteInnerView(query: Record<string, string>): string {
  const parts = Object.entries(query).map(([k, v]) => {
    const value = KEEP_AS_IS.includes(k) ? v : safeDecode(v);
    return `${encodeURIComponent(k)}=${encodeURIComponent(value)}`;
  });
  return `/slide/view${parts.length ? `?${parts.join('&')}` : ''}`;
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

function fullPath(path: string, query: Record<string, string>): string {
  const qs = new URLSearchParams(query).toString();
  return qs ? `${path}?${qs}` : path;
}
