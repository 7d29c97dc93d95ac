import type { Db } from '../../db/connect.js';
import { patientByNumber } from '../hl7/queries.js';
import type { HisAdapter, HisQuery } from './adapter.js';

/**
 * HIS_ADAPTER=hl7: the patients the HIS registered over HL7 (ADT^A01/A04/A08 to the MLLP listener, modules/hl7),
 * looked up by outpatient or admission number in the hospital registration works in. Nothing is asked of the HIS at
 * look-up time: a patient it never sent is "unknown" and the form is typed by hand.
 */
export function hl7HisAdapter(db: Db): HisAdapter {
  return {
    name: 'hl7',
    async lookup(query: HisQuery) {
      if (!query.hospital_id) return null;
      if (query.outpatient_number) return patientByNumber(db, query.hospital_id, 'outpatient', query.outpatient_number);
      if (query.admission_number) return patientByNumber(db, query.hospital_id, 'admission', query.admission_number);
      return null;
    },
  };
}
