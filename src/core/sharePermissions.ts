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

/**
 * The flags that show something, each with the permission that shows the same in the app: a link may carry a flag
 * only when its creator holds it, and it shows only while the creator still does (and, on a need-login link, while
 * the viewer does too), so a link never shows more than the people behind it may see.
 */
export const SHARE_FLAG_PERMISSION = {
  diagnosis: 'case_view',
  remark: 'slide_view',
  labels: 'case_view',
  annotation: 'slide_annotation_view',
} as const satisfies Record<Exclude<keyof SharePermissions, 'need_login'>, string>;

export type ShareFlag = keyof typeof SHARE_FLAG_PERMISSION;

const FLAGS = Object.keys(SHARE_FLAG_PERMISSION) as ShareFlag[];

/** The flags set in `permissions` whose permission `holds` says no to. */
export function flagsNotHeld(permissions: SharePermissions, holds: (code: string) => boolean): ShareFlag[] {
  return FLAGS.filter((f) => permissions[f] && !holds(SHARE_FLAG_PERMISSION[f]));
}

/** What a link shows now: each flag stays on only if every one of `holders` holds its permission; need_login is kept. */
export function flagsHeld(permissions: SharePermissions, ...holders: ((code: string) => boolean)[]): SharePermissions {
  const held = { ...permissions };
  for (const f of FLAGS) held[f] = permissions[f] && holders.every((holds) => holds(SHARE_FLAG_PERMISSION[f]));
  return held;
}

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
