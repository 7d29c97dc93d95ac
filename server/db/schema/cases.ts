import type { ColumnType, Generated } from 'kysely';

/** Cases and their lifecycle: applications, specimens, blocks, orders, timeline, images, charges. */

export interface CaseTable {
  id: Generated<number>;
  hospital_id: number;
  pathology_number: string;
  case_type: string;
  /** The subspecialty directory the case is filed under (subspecialties.id); null: every directory's. */
  subspecialty_id: number | null;
  patient_name: string | null;
  gender: string | null;
  age: number | null;
  age_unit: string | null;
  id_number: string | null;
  phone: string | null;
  outpatient_number: string | null;
  admission_number: string | null;
  inspection_hospital: string | null;
  inspection_department: string | null;
  inspection_doctor: string | null;
  inspection_date: string | null;
  specimen_name: string | null;
  clinical_diagnosis: string | null;
  main_phase: string;
  sub_phase: string | null;
  expedite_status: number;
  registration_at: string | null;
  registration_doctor: number | null;
  extra: string | null;
  created_at: string;
  updated_at: string;
  // Lifecycle fields (0015_case_lifecycle; spec §3 Case).
  status: string | null;
  library: string | null;
  apply_id: number | null;
  treat_type: string | null;
  bed_number: string | null;
  doctor_advice: string | null;
  special_check: string | null;
  cell_block_pathology: string | null;
  has_technology_advice: Generated<number>;
  has_spec_advice: Generated<number>;
  has_supplementary: Generated<number>;
  supplement_type: number | null;
  report_type: number | null;
  archive_status: Generated<string>;
  report_status: string | null;
  print_deliver_status: Generated<number>;
  release_status: string | null;
  print_at: string | null;
  deliver_at: string | null;
  is_draft: Generated<number>;
  receive_at: string | null;
  receive_doctor: number | null;
  sample_at: string | null;
  sample_doctor: number | null;
  slide_ready_at: string | null;
  allocation_at: string | null;
  allocation_doctor: number | null;
  first_doctor: number | null;
  phase_at: string | null;
  /** Bumped by every lifecycle transition (optimistic concurrency). */
  version: Generated<number>;
  // 0019_reports: the latest report's status fields (JSON), the signing date and doctor for the report searches.
  latest_report: string | null;
  sign_at: string | null;
  doctor_id: number | null;
  report_supplementary: string | null;
}

/** Spec §4 slide application: 0 applied, 1 dispatched, 2 received, 3 registered, -1 rejected. */
export interface CaseApplicationTable {
  id: Generated<number>;
  hospital_id: number;
  apply_number: string;
  status: number;
  case_type: string;
  patient_name: string | null;
  gender: string | null;
  age: number | null;
  age_unit: string | null;
  outpatient_number: string | null;
  admission_number: string | null;
  inspection_department: string | null;
  inspection_doctor: string | null;
  specimen_name: string | null;
  clinical_diagnosis: string | null;
  reject_reason: string | null;
  case_id: number | null;
  applied_by: number | null;
  dispatched_at: string | null;
  dispatched_by: number | null;
  received_at: string | null;
  received_by: number | null;
  version: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface CaseSpecimenTable {
  id: Generated<number>;
  hospital_id: number;
  case_id: number;
  seq: number;
  name: string;
  specimen_type: number | null;
  fixative: string | null;
  fixed_at: string | null;
  location: string | null;
  leave_body_at: string | null;
  /** pending (awaiting receipt), received, rejected, used_up */
  status: string;
  receive_at: string | null;
  receive_doctor: number | null;
  rejection_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface CaseBlockTable {
  id: Generated<number>;
  hospital_id: number;
  case_id: number;
  specimen_id: number | null;
  block_number: string;
  tissue_count: number | null;
  description: string | null;
  outside: number;
  sampled_by: number | null;
  created_at: string;
}

export interface TechnicalOrderTable {
  id: Generated<number>;
  hospital_id: number;
  case_id: number;
  category: string;
  order_type: string;
  specimen_id: number | null;
  block_id: number | null;
  reagent_id: number | null;
  quantity: number;
  note: string | null;
  status: string;
  open_key: string | null;
  ordered_by: number | null;
  created_at: string;
  done_at: string | null;
}

export interface CaseTimelineTable {
  id: Generated<number>;
  hospital_id: number;
  case_id: number;
  action: string;
  from_phase: string | null;
  to_phase: string | null;
  from_sub_phase: string | null;
  to_sub_phase: string | null;
  actor_id: number | null;
  actor_name: string | null;
  detail: string | null;
  created_at: string;
}

/** A case's images (migration 0013): attachments tied to a case, e.g. an edited viewer screenshot. */
export interface CaseImageTable {
  id: Generated<number>;
  case_id: number;
  hospital_id: number;
  path: string;
  slide_id: number | null;
  title: string;
  created_by: number;
  created_at: string;
  /** A DICOM attachment's header (migration 0044); all null for a picture. */
  modality: ColumnType<string | null, string | null | undefined, string | null>;
  series_uid: ColumnType<string | null, string | null | undefined, string | null>;
  series_number: ColumnType<number | null, number | null | undefined, number | null>;
  series_description: ColumnType<string | null, string | null | undefined, string | null>;
  instance_number: ColumnType<number | null, number | null | undefined, number | null>;
}

/** What a case or order was charged when registered or ordered (migration 0030): the price of that moment, in cents. */
export interface CaseChargeTable {
  id: Generated<number>;
  hospital_id: number;
  case_id: number;
  order_id: number | null;
  charge_key: string;
  item: string;
  kind: 'case' | 'special' | 'additional';
  quantity: number;
  unit_price_cents: number;
  amount_cents: number;
  charged_by: number | null;
  charged_at: string;
}

/** A consultation on a case (migration 0050, issue 32): asked of a colleague or, through a link, an outside expert. */
export interface ConsultationTable {
  id: Generated<number>;
  hospital_id: number;
  case_id: number;
  pathology_number: string | null;
  mode: string;
  status: string;
  consultant_id: number | null;
  expert_name: string | null;
  expert_unit: string | null;
  question: string | null;
  opinion: string | null;
  requested_by: number | null;
  answered_by: number | null;
  answered_at: string | null;
  withdrawn_by: number | null;
  withdrawn_at: string | null;
  single_use: number;
  token_hash: string | null;
  expires_at: string | null;
  share_ids: string | null;
  created_at: string;
  updated_at: string;
}
