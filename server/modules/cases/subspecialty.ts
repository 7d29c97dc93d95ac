import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { coversCase, directoryRestriction, type DirectoryHolder } from '../../../src/core/subspecialty.js';

type Db = Kysely<Database>;

/**
 * A case is filed under an enabled directory of its own hospital, or none (null); anything else is refused, nothing
 * written. A user limited to some directories (`actor`) files only under theirs: a case they could not see afterwards
 * would be a write that answers "not found".
 */
export async function checkCaseDirectory(db: Db, hospitalId: number, value: unknown, actor?: DirectoryHolder): Promise<void> {
  if (value === undefined || value === null) return;
  if (actor && typeof value === 'number' && !coversCase(directoryRestriction(actor), value)) {
    throw new AppError(403, 'case.subspecialty_not_yours', {}, { subspecialty_id: [{ key: 'case.subspecialty_not_yours' }] });
  }
  const row = typeof value === 'number' && Number.isInteger(value)
    ? await db.selectFrom('subspecialties').select('id').where('id', '=', value).where('hospital_id', '=', hospitalId).where('enabled', '=', 1).executeTakeFirst()
    : undefined;
  if (!row) {
    throw new AppError(422, 'case.subspecialty_unknown', {}, { subspecialty_id: [{ key: 'case.subspecialty_unknown' }] });
  }
}

/**
 * Of `doctorIds`, those who may work on a case filed under `directory` (CaseDistribution offers and accepts only
 * them): a doctor holding no directories works in all, an administrator too (src/core/subspecialty.ts).
 */
export async function doctorsCovering(db: Db, doctorIds: number[], directory: number | null): Promise<Set<number>> {
  if (!doctorIds.length || directory === null) return new Set(doctorIds);
  const [dirs, roles] = await Promise.all([
    db.selectFrom('user_subspecialties').select(['user_id', 'subspecialty_id']).where('user_id', 'in', doctorIds).execute(),
    db.selectFrom('user_roles').innerJoin('roles', 'roles.id', 'user_roles.role_id').select(['user_roles.user_id', 'roles.identification', 'roles.name'])
      .where('user_roles.user_id', 'in', doctorIds).execute(),
  ]);
  return new Set(doctorIds.filter((id) => {
    const mine = roles.filter((r) => r.user_id === id);
    const restriction = directoryRestriction({
      identification: mine.map((r) => r.identification), roleNames: mine.map((r) => r.name),
      subspecialtyIds: dirs.filter((d) => d.user_id === id).map((d) => d.subspecialty_id),
    });
    return coversCase(restriction, directory);
  }));
}
