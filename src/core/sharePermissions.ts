/** What a share link lets its holder see (spec §6 share permissions); the slide itself is always shown. */
export interface SharePermissions {
  /** The case's diagnosis information: pathology number, specimen, clinical diagnosis. */
  diagnosis: boolean;
  /** The slide's remark. */
  remark: boolean;
  /** The case's labels. */
  labels: boolean;
  /** The slide's annotations (read only). */
  annotation: boolean;
  /** Only a signed-in user of the slide's hospital may open it. */
  need_login: boolean;
}

export const SHARE_PERMISSION_KEYS = ['diagnosis', 'remark', 'labels', 'annotation', 'need_login'] as const;

/** Spec §9: share expiry default 3 hours. */
export const DEFAULT_SHARE_SECONDS = 3 * 3600;
/** The longest a link may live: 30 days. */
export const MAX_SHARE_SECONDS = 30 * 24 * 3600;

export const NO_SHARE_PERMISSIONS: SharePermissions = { diagnosis: false, remark: false, labels: false, annotation: false, need_login: false };

/** Reads stored permissions; anything unknown or missing is off. */
export function parseSharePermissions(text: string | null | undefined): SharePermissions {
  let raw: unknown;
  try { raw = JSON.parse(text ?? '{}'); } catch { raw = {}; }
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  return Object.fromEntries(SHARE_PERMISSION_KEYS.map((k) => [k, r[k] === true])) as unknown as SharePermissions;
}

export type ShareState = 'active' | 'expired' | 'revoked';

export function shareState(share: { expires_at: string; revoked_at: string | null }, now: string): ShareState {
  if (share.revoked_at) return 'revoked';
  return share.expires_at <= now ? 'expired' : 'active';
}
