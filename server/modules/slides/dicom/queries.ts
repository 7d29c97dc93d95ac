import { isUidNamespace } from '../../../../src/core/dicomUid.js';
import type { Db } from '../../../db/connect.js';

/** Where migration 0043 keeps the installation's UID namespace (a settings key the settings API does not declare). */
const NAMESPACE_KEY = 'dicom_uid_namespace';

/** Read once per database handle: it never changes. */
const namespaces = new WeakMap<Db, Promise<string>>();

/** The installation's DICOM UID namespace (src/core/dicomUid.ts). */
export function dicomUidNamespace(db: Db): Promise<string> {
  let known = namespaces.get(db);
  if (!known) {
    known = db.selectFrom('settings').select('value').where('key', '=', NAMESPACE_KEY).executeTakeFirst().then((row) => {
      const value = row ? (JSON.parse(row.value) as unknown) : null;
      if (typeof value !== 'string' || !isUidNamespace(value)) throw new Error('the DICOM UID namespace is missing (migration 0043)');
      return value;
    });
    known.catch(() => namespaces.delete(db));
    namespaces.set(db, known);
  }
  return known;
}
