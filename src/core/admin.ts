/**
 * Spec §6: "Admin is a role named like administrator, demo administrator or admin"; administrators may do
 * everything. One rule for the server's guard and the browser's action checks.
 *
 * Names are compared whole (trimmed, case and inner spaces folded), never as a substring: a "sub-center
 * administrator" (分中心管理员, a labelled role of its own in spec §6) is not an administrator. A role's name is
 * written only by holders of `system_role`, and one who is not an administrator may not name or code a role so
 * (server/modules/roles/hooks.ts), so recognising by name opens no way up.
 */
export const ADMIN_IDENTIFICATION = 'admin';

/** The spec's three names, in both UI languages (role names are free text, entered in either). */
const ADMIN_ROLE_NAMES = new Set(['admin', 'administrator', 'demo administrator', '管理员', '演示管理员']);

const fold = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

export function isAdminRoleName(name: string | null | undefined): boolean {
  return typeof name === 'string' && ADMIN_ROLE_NAMES.has(fold(name));
}

/** What tells an administrator: the roles' codes (`identification`) and, where known, their names. */
export interface AdminEvidence {
  identification: readonly string[];
  roleNames?: readonly string[];
}

export function isAdmin(user: AdminEvidence): boolean {
  return user.identification.includes(ADMIN_IDENTIFICATION) || (user.roleNames ?? []).some(isAdminRoleName);
}
