import { isAdmin, type AdminEvidence } from './admin';

/**
 * Spec §6: "subspecialty directory permissions attach to users". A user holds a set of directories (Breast,
 * Gastrointestinal, …) of their hospitals; a case is filed under at most one. The rule, shared by the server's
 * queries and the browser's distribution dialog:
 * - an administrator works in every directory;
 * - a user with no directories works in every directory (an empty set restricts nothing, so installing the
 *   feature hides no case from anyone until an administrator grants directories);
 * - a case filed under no directory is everyone's (as far as the hospital scope lets them see it).
 */
export interface DirectoryHolder extends AdminEvidence {
  subspecialtyIds?: readonly number[];
}

/** The directories a user is limited to, or undefined when they work in all of them. */
export function directoryRestriction(user: DirectoryHolder): number[] | undefined {
  if (isAdmin(user)) return undefined;
  const ids = [...new Set(user.subspecialtyIds ?? [])];
  return ids.length ? ids : undefined;
}

/** Whether a user limited to `restriction` (undefined: all) may see and work on a case filed under `caseDirectory`. */
export function coversCase(restriction: readonly number[] | undefined, caseDirectory: number | null | undefined): boolean {
  if (restriction === undefined || caseDirectory === null || caseDirectory === undefined) return true;
  return restriction.includes(caseDirectory);
}

/** The directories of `wanted` that are not among `grantable` (what a sub-centre administrator may hand out). */
export function directoriesOutside(wanted: readonly number[], grantable: readonly number[]): number[] {
  return [...new Set(wanted)].filter((id) => !grantable.includes(id));
}
