import type { Db } from '../../db/connect.js';

/** The SQL of the sign-in page's single sign-on choices (routes.ts). */

/** Hospitals whose single sign-on or messaging-app login is switched on, with what their buttons say. */
export const loginChoices = (db: Db) =>
  db.selectFrom('sso_configs').innerJoin('hospitals', 'hospitals.id', 'sso_configs.hospital_id')
    .select(['sso_configs.hospital_id', 'sso_configs.label', 'sso_configs.enabled', 'sso_configs.im_enabled', 'sso_configs.im_kind', 'hospitals.name', 'hospitals.en_name'])
    .where((eb) => eb.or([eb('sso_configs.enabled', '=', 1), eb('sso_configs.im_enabled', '=', 1)])).orderBy('sso_configs.hospital_id').execute();

/** Up to two hospitals with the messaging-app login switched on: enough to tell whether only one has it. */
export const messagingHospitals = async (db: Db): Promise<number[]> =>
  (await db.selectFrom('sso_configs').select('hospital_id').where('im_enabled', '=', 1).limit(2).execute()).map((r) => r.hospital_id);
