/**
 * Hardware keys (WebAuthn, issue 17): the rules the server and the browser share. Pure: no Node, no React.
 */

/** The setting (server/modules/settings/declared.ts) that names the roles allowed to sign in with a key. */
export const SECURITY_KEY_SETTING = 'webauthn_login';

/** How many keys one account may hold: enough for a spare per workplace, few enough to list on one screen. */
export const MAX_SECURITY_KEYS = 20;

/** A key's name, as the user typed it (the list tells keys apart by it). */
export const SECURITY_KEY_NAME_MAX = 64;

/**
 * The role ids the setting allows. Read defensively: whatever the table holds, anything but positive whole ids
 * counts as no role, so a broken value never opens sign-in to everyone.
 */
export function passwordlessRoles(value: unknown): number[] {
  const parsed = typeof value === 'string' ? safeJson(value) : value;
  const ids = (parsed as { role_ids?: unknown } | null)?.role_ids;
  if (!Array.isArray(ids)) return [];
  return [...new Set(ids.filter((x): x is number => Number.isInteger(x) && (x as number) > 0))];
}

/** A user may sign in with a key when one of their roles is among the allowed ones. */
export function mayUseSecurityKey(userRoleIds: readonly number[], allowed: readonly number[]): boolean {
  return userRoleIds.some((id) => allowed.includes(id));
}

/**
 * Browsers refuse an IP address as a WebAuthn relying party id, so the app must be reached by a host name
 * (`localhost` counts). True for IPv4 dotted quads and anything bracketed or holding a colon (IPv6).
 */
export function isIpHost(hostname: string): boolean {
  const h = hostname.trim();
  if (h.startsWith('[') || h.includes(':')) return true;
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(h);
}

/** A key's name trimmed; null when empty or too long (the server answers 422, the form says so first). */
export function securityKeyName(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const name = raw.trim();
  return name.length > 0 && name.length <= SECURITY_KEY_NAME_MAX ? name : null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
