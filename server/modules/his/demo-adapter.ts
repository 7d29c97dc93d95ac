import type { HisAdapter, HisPatient, HisQuery } from './adapter.js';

/** A few patients of a made-up HIS, standing in for the hospital's real one (outside the app) in demos and tests. */
const PATIENTS: HisPatient[] = [
  {
    patient_name: '孙丽', gender: 'female', age: 47, age_unit: 'year', id_number: '110101197901010022', phone: '13800000001',
    outpatient_number: 'MZ20260001', admission_number: null, treat_type: 'clinic', bed_number: null,
    inspection_department: '消化内科', inspection_doctor: '王医生', clinical_diagnosis: '胃窦炎？',
  },
  {
    patient_name: '周强', gender: 'male', age: 63, age_unit: 'year', id_number: '110101196301010031', phone: '13800000002',
    outpatient_number: null, admission_number: 'ZY20260002', treat_type: 'hospital', bed_number: '12-3',
    inspection_department: '胸外科', inspection_doctor: '李医生', clinical_diagnosis: '右肺上叶占位',
  },
];

export const demoHisAdapter: HisAdapter = {
  name: 'demo',
  async lookup(query: HisQuery) {
    return PATIENTS.find((p) => (query.outpatient_number && p.outpatient_number === query.outpatient_number)
      || (query.admission_number && p.admission_number === query.admission_number)) ?? null;
  },
};
