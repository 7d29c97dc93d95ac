import { ADMIN_IDENTIFICATION, isAdmin as isAdminByRoles } from '../../src/core/admin.js';
import type { SessionUser } from './types.js';

export { ADMIN_IDENTIFICATION };

/** Spec §6: the admin role code, or a role named like administrator (the rule shared with the browser). */
export function isAdmin(user: Pick<SessionUser, 'identification' | 'roleNames'>): boolean {
  return isAdminByRoles(user);
}

/** Administrators hold every permission (spec §6); others hold the merged permissions of their roles. */
export function hasPermission(user: Pick<SessionUser, 'identification' | 'roleNames' | 'permissions'>, code: string): boolean {
  return isAdmin(user) || user.permissions.includes(code);
}
