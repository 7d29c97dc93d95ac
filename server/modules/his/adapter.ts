/**
 * The hospital information system (HIS) as registration sees it: a patient looked up by outpatient or
 * admission number fills the registration form (issue 10). Each hospital's HIS speaks its own protocol
 * (HL7 v2, a vendor web service, a database view); an adapter hides it behind this one call.
 */
export interface HisQuery {
  outpatient_number?: string;
  admission_number?: string;
  /** The hospital registration works in (an adapter that keeps patients per hospital reads it: `hl7`). */
  hospital_id?: number;
}

export interface HisPatient {
  patient_name: string;
  gender: 'male' | 'female' | 'unknown';
  age: number | null;
  age_unit: 'year' | 'month' | 'day' | null;
  id_number: string | null;
  phone: string | null;
  outpatient_number: string | null;
  admission_number: string | null;
  treat_type: 'clinic' | 'hospital' | 'physical_examination' | null;
  bed_number: string | null;
  inspection_department: string | null;
  inspection_doctor: string | null;
  clinical_diagnosis: string | null;
}

export interface HisAdapter {
  /** Shown to administrators (which HIS answers). */
  readonly name: string;
  /** The patient the number belongs to, or null when the HIS does not know it. */
  lookup(query: HisQuery): Promise<HisPatient | null>;
}
