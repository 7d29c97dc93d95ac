import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';

/** The hospital's enabled first-diagnosis doctors with the cases waiting for their first diagnosis now. */
export async function primaryWorkload(db: Db, hospitalId: number) {
  const doctors = await db.selectFrom('users')
    .innerJoin('user_roles', 'user_roles.user_id', 'users.id')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .innerJoin('user_hospitals', 'user_hospitals.user_id', 'users.id')
    .select(['users.id', 'users.name', 'users.realname'])
    .where('roles.identification', '=', 'primary_doctor').where('user_hospitals.hospital_id', '=', hospitalId)
    .where('users.status', '=', 1).where('users.locked', '=', 0)
    .distinct().orderBy('users.id').execute();
  if (!doctors.length) return [];
  const loads = await db.selectFrom('cases').select(['first_doctor', sql<number>`count(*)`.as('n')])
    .where('hospital_id', '=', hospitalId).where('main_phase', '=', 'diagnosis').where('sub_phase', '=', 'to_first')
    .where('first_doctor', 'in', doctors.map((d) => d.id)).groupBy('first_doctor').execute();
  const byDoctor = new Map(loads.map((l) => [Number(l.first_doctor), Number(l.n)]));
  return doctors.map((d) => ({ ...d, workload: byDoctor.get(d.id) ?? 0 }));
}
