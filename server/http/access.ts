import type { SessionUser } from './types.js';

export const ADMIN_IDENTIFICATION = 'admin';

export function isAdmin(user: Pick<SessionUser, 'identification'>): boolean {
  return user.identification.includes(ADMIN_IDENTIFICATION);
}

/** Administrators hold every permission (spec §6); others hold the merged permissions of their roles. */
export function hasPermission(user: Pick<SessionUser, 'identification' | 'permissions'>, code: string): boolean {
  return isAdmin(user) || user.permissions.includes(code);
}
