import type { ReportTables } from './schema-reports.js';
import type { ColumnType, Generated } from 'kysely';

/** Times are ISO-8601 UTC strings and JSON is text, so SQLite and PostgreSQL store the same values. */
export interface HospitalTable {
  id: Generated<number>;
  code: string;
  name: string;
  en_name: string;
  logo: string | null;
  created_at: string;
}

export interface UserTable {
  id: Generated<number>;
  name: string;
  realname: string;
  password_hash: string;
  email: string | null;
  phone: string | null;
  /** 1 enabled, 0 disabled by an administrator. */
  status: number;
  /** 1 locked by an administrator (distinct from the temporary login lock). */
  locked: number;
  expires_at: string | null;
  failed_attempts: number;
  login_locked_until: string | null;
  extra: string;
  created_at: string;
  updated_at: string;
}

export interface RoleTable {
  id: Generated<number>;
  name: string;
  /** The role's name in English; the UI shows it when the language is English (`name` when empty). */
  en_name: string | null;
  identification: string;
  description: string | null;
  /** JSON array of permission codes (spec §3: the role's extra JSON). */
  extra: string;
  created_at: string;
}

export interface UserRoleTable { user_id: number; role_id: number }
export interface UserHospitalTable { user_id: number; hospital_id: number }
export interface RoleMenuTable { role_id: number; menu_id: number }

export interface PermissionTable {
  id: Generated<number>;
  code: string;
  description: string;
  en_description: string;
  module: string;
  api_path: string | null;
}

export interface MenuTable {
  id: Generated<number>;
  parent_id: number | null;
  uri: string;
  alias: string;
  route_name: string;
  name: string;
  en_name: string;
  is_show: string;
  icon: string | null;
  external_link: number;
  active_menu: string | null;
  rank: number;
}

export interface SettingTable {
  key: string;
  value: string;
  is_public: number;
  updated_at: string;
}

export interface AuthKeyTable {
  key_id: string;
  public_key: string;
  private_key: string;
  created_at: string;
}

export interface AuthChallengeTable {
  nonce: string;
  key_id: string;
  expires_at: string;
  used_at: string | null;
}

export interface AuthTokenTable {
  token_hash: string;
  user_id: number;
  hospital_id: number | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** The screen of this session is locked: only unlocking, logging out and public routes answer it. */
  locked_at: string | null;
}

export interface LoginLogTable {
  id: Generated<number>;
  user_id: number | null;
  username: string;
  success: number;
  reason: string;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
}

export interface OperationLogTable {
  id: Generated<number>;
  user_id: number | null;
  username: string | null;
  method: string;
  path: string;
  route: string | null;
  status_code: number;
  payload: string | null;
  ip: string | null;
  created_at: string;
}

export interface PageSchemaVersionTable {
  id: Generated<number>;
  /** 'page' (schemas/pages) or 'rule' (schemas/rules); versions count per kind, alias and hospital. */
  kind: ColumnType<string, string | undefined, never>;
  alias: string;
  /** 0 for installations without hospitals. */
  hospital_id: number;
  version: number;
  /** JSON merge patch (RFC 7386) over the repository's base schema. */
  override: string;
  note: string | null;
  created_by: string | null;
  created_at: string;
}

export interface ColumnPreferenceTable {
  user_id: number;
  route_key: string;
  /** JSON: [{ prop, hidden }] in the user's order. */
  columns: string;
  updated_at: string;
}

export interface LabelTable {
  id: Generated<number>;
  name: string;
  en_name: string | null;
  parent_id: number | null;
  color: string | null;
  description: string | null;
  rank: number;
  created_at: string;
  updated_at: string;
}

export interface ReagentTable {
  id: Generated<number>;
  name: string;
  /** ihc | special_stain | molecular (spec §4 special examinations) */
  type: string;
  clone_no: string | null;
  manufacturer: string | null;
  specification: string | null;
  status: number;
  rank: number;
  remark: string | null;
  created_at: string;
  updated_at: string;
}

export interface ErrorLogTable {
  id: Generated<number>;
  user_id: number | null;
  username: string | null;
  page: string | null;
  message: string;
  user_agent: string | null;
  created_at: string;
}

export interface SectionLogTable {
  id: Generated<number>;
  slide_id: number | null;
  slide_name: string | null;
  case_id: number | null;
  user_id: number | null;
  username: string | null;
  action: string;
  detail: string | null;
  created_at: string;
}

/** `file_size` comes back from PostgreSQL's bigint as a string; read it through Number(). */
export interface SlideTable {
  id: Generated<number>;
  hospital_id: number;
  case_id: number | null;
  name: string;
  file_path: string;
  file_size: number | string;
  md5: string | null;
  vendor: string | null;
  width: number | null;
  height: number | null;
  levels: number | null;
  mpp: number | null;
  objective_power: number | null;
  scan_at: string | null;
  tile_size: number | null;
  status: 'ready' | 'needs_conversion' | 'converting' | 'error';
  has_label: number;
  has_macro: number;
  /** Why the UI must qualify this slide (experimental reader, why it needs conversion); null when nothing. */
  format_note: string | null;
  /** 0–100 while a background job (conversion) works on the slide; null otherwise. */
  progress: number | null;
  uploaded_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface CaseTable {
  id: Generated<number>;
  hospital_id: number;
  pathology_number: string;
  case_type: string;
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

export interface NumberingRuleTable {
  id: Generated<number>;
  hospital_id: number;
  library: string;
  name: string | null;
  prefix: string;
  middle: string;
  connector: string;
  length: number;
  regex: string | null;
  created_at: string;
  updated_at: string;
}

export interface NumberingCounterTable {
  rule_id: number;
  period: string;
  value: number;
}

/** A pathologist's own favourites folder (spec §3 collection categories). */
export interface CollectionCategoryTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  rank: number;
  created_at: string;
  updated_at: string;
}

/** A slide a user collected; category_id null means uncategorised. One row per user and slide. */
export interface CollectionTable {
  id: Generated<number>;
  user_id: number;
  category_id: number | null;
  slide_id: number;
  remark: string | null;
  created_at: string;
}

/** A glass slide cut from a case's wax block (block-section, stain), bound to its scanned file once scanned. */
export interface SlideSectionTable {
  id: Generated<number>;
  hospital_id: number;
  case_id: number;
  block_number: string;
  section_number: number;
  stain: string;
  label: string | null;
  slide_id: number | null;
  created_by: number | null;
  created_at: string;
  /** The wax block it was cut from (0015), when made in the lab; `outside`: 1 for a slide sent in from another hospital. */
  block_id?: number | null;
  outside?: Generated<number>;
}

/** A secret that signs links (issue 8): never in `settings`, rotated by creation time per purpose. */
export interface SigningKeyTable {
  key_id: string;
  purpose: string;
  secret: string;
  created_at: string;
}

/** Who stored an attachment (POST /api/upload/image), for the per-user quota. PostgreSQL returns bigint as text. */
export interface AttachmentTable {
  id: Generated<number>;
  user_id: number;
  hospital_id: number | null;
  path: string;
  size: number | string;
  created_at: string;
}

export interface Database extends ReportTables {
  hospitals: HospitalTable;
  users: UserTable;
  roles: RoleTable;
  user_roles: UserRoleTable;
  user_hospitals: UserHospitalTable;
  role_menus: RoleMenuTable;
  permissions: PermissionTable;
  menus: MenuTable;
  settings: SettingTable;
  auth_keys: AuthKeyTable;
  signing_keys: SigningKeyTable;
  attachments: AttachmentTable;
  auth_challenges: AuthChallengeTable;
  auth_tokens: AuthTokenTable;
  login_logs: LoginLogTable;
  operation_logs: OperationLogTable;
  page_schema_versions: PageSchemaVersionTable;
  column_preferences: ColumnPreferenceTable;
  labels: LabelTable;
  reagents: ReagentTable;
  error_logs: ErrorLogTable;
  section_logs: SectionLogTable;
  slides: SlideTable;
  jobs: JobTable;
  cases: CaseTable;
  collection_categories: CollectionCategoryTable;
  collections: CollectionTable;
  slide_sections: SlideSectionTable;
  case_applications: CaseApplicationTable;
  case_specimens: CaseSpecimenTable;
  case_blocks: CaseBlockTable;
  technical_orders: TechnicalOrderTable;
  case_timeline: CaseTimelineTable;
  numbering_rules: NumberingRuleTable;
  numbering_counters: NumberingCounterTable;
  slide_annotations: SlideAnnotationTable;
  case_images: CaseImageTable;
  messages: MessageTable;
  qr_logins: QrLoginTable;
  slide_shares: SlideShareTable;
  meetings: MeetingTable;
  meeting_slides: MeetingSlideTable;
  meeting_participants: MeetingParticipantTable;
  scanners: ScannerTable;
  scan_jobs: ScanJobTable;
  slide_qc: SlideQcTable;
  slide_focus: SlideFocusTable;
  qc_dict: QcDictTable;
  slide_labels: SlideLabelTable;
  sso_configs: SsoConfigTable;
  sso_flows: SsoFlowTable;
  sso_codes: SsoCodeTable;
}

/** Reading meetings (migration 0025). */
export interface MeetingTable {
  id: Generated<number>;
  hospital_id: number;
  name: string;
  cover_slide_id: number | null;
  start_at: string;
  created_by: number;
  /** Who holds control now: participants follow this user's viewport. */
  presenter_id: number | null;
  /** The slide on screen. */
  slide_id: number | null;
  status: 'open' | 'ended';
  /** Grows with every change of state (compare-and-set for taking control). */
  version: Generated<number>;
  ended_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface MeetingSlideTable {
  meeting_id: number;
  slide_id: number;
  rank: number;
}

export interface MeetingParticipantTable {
  meeting_id: number;
  user_id: number;
  joined_at: string;
}

export interface SlideShareTable {
  id: Generated<number>;
  token_hash: string;
  slide_id: number;
  hospital_id: number;
  created_by: number;
  permissions: string;
  expires_at: string;
  revoked_at: string | null;
  created_at: string;
}

export interface JobTable {
  id: Generated<number>;
  type: string;
  /** One live (queued or running) job per key, e.g. `slides.convert:42`. */
  dedupe_key: string | null;
  hospital_id: number | null;
  slide_id: number | null;
  /** JSON of what the job type needs. */
  payload: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  progress: number;
  /** A message key (server/i18n) describing the current step. */
  message: string | null;
  attempts: number;
  max_attempts: number;
  run_after: string;
  lease_owner: string | null;
  lease_until: string | null;
  /** The last failure: a message key or the error text. */
  error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** Shapes drawn on a slide in the viewer (migration 0013); `points` is JSON in level-0 image pixels. */
export interface SlideAnnotationTable {
  id: Generated<number>;
  slide_id: number;
  hospital_id: number;
  user_id: number;
  username: string | null;
  type: string;
  points: string;
  name: string;
  description: string;
  color: string;
  classification: string;
  length_um: number | null;
  area_um2: number | null;
  perimeter_um: number | null;
  version: Generated<number>;
  created_at: string;
  updated_at: string;
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
}

export interface MessageTable {
  id: Generated<number>;
  /** The rows of one sending share it (the sender's "sent" list shows one entry per batch). */
  batch: string;
  hospital_id: number | null;
  /** The recipient. */
  user_id: number;
  /** Null for system messages. */
  from_user_id: number | null;
  kind: 'message' | 'notice' | 'system';
  level: number;
  title: string;
  content: string;
  /** System messages: a key of server/modules/messages/messages.ts and its parameters (JSON), worded when read. */
  message_key: string | null;
  params: string | null;
  /** An in-app path the message leads to (e.g. the case). */
  link: string | null;
  read_at: string | null;
  recipient_deleted: Generated<number>;
  sender_deleted: Generated<number>;
  created_at: string;
}

/** Scanners, scan jobs, QC and the focus check (migration 0023, issue 16). */
export type ScannerStatus = 'idle' | 'offline' | 'working' | 'preview' | 'error' | 'init';
export interface ScannerTable {
  id: Generated<number>;
  hospital_id: number;
  area: string | null;
  name: string;
  model: string | null;
  serial_number: string | null;
  location: string | null;
  storage_path: string | null;
  queue_names: string | null;
  code: string | null;
  ip: string | null;
  status: ScannerStatus;
  status_at: string | null;
  heartbeat_at: string | null;
  message: string | null;
  /** SHA-256 of the scanner's API key, hex; the key itself is shown once. */
  key_hash: string | null;
  key_prefix: string | null;
  key_revoked_at: string | null;
  created_at: string;
  updated_at: string;
}

export type ScanResult = 'not_scanned' | 'preview_success' | 'scanned' | 'scan_failed' | 'no_slide';
export interface ScanJobTable {
  id: Generated<number>;
  hospital_id: number;
  scanner_id: number;
  barcode: string | null;
  scan_level: number | null;
  scale: number | null;
  result: ScanResult;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  slide_id: number | null;
  case_id: number | null;
  section_id: number | null;
  /** pending (no slide yet), bound (to its case's glass slide by barcode), not_bound (waits for manual binding). */
  bind_status: string;
  rescan: number;
  message: string | null;
  created_at: string;
  updated_at: string;
}

export interface SlideQcTable {
  id: Generated<number>;
  hospital_id: number;
  slide_id: number;
  blur_share: number | null;
  /** pending, done, failed: the focus check's state. */
  focus_status: string;
  grade: string | null;
  /** Comma-separated reason codes (spec §9). */
  reasons: string | null;
  suggested_reasons: string | null;
  judge: string | null;
  remark: string | null;
  qc_by: number | null;
  qc_at: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface SlideFocusTable {
  slide_id: number;
  level: number;
  cols: number;
  rows: number;
  cell_width: number;
  cell_height: number;
  threshold: number;
  tissue_cells: number;
  blurred_cells: number;
  blur_share: number;
  map: string;
  ms: number | null;
  created_at: string;
}

export interface QcDictTable {
  id: Generated<number>;
  hospital_id: number;
  type: string;
  name: string;
  en_name: string | null;
  code: string | null;
  rank: number;
  enabled: number;
  created_at: string;
  updated_at: string;
}

/** A label on a slide (migration 0026b, issue 16): by hand or by the automatic labelling. */
export interface SlideLabelTable {
  id: Generated<number>;
  hospital_id: number;
  slide_id: number;
  label_id: number;
  source: 'manual' | 'auto';
  created_by: number | null;
  created_at: string;
}

/** Single sign-on per hospital (migration 0027): an OpenID Connect provider and a messaging-app login. */
export interface SsoConfigTable {
  hospital_id: number;
  enabled: number;
  label: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  user_claim: string;
  create_unknown: number;
  default_role_id: number | null;
  im_enabled: number;
  im_kind: string;
  im_base_url: string;
  im_app_key: string;
  im_app_secret: string;
  im_user_field: string;
  updated_at: string;
}

/** A sign-in sent to the provider and not yet back: single-use, expiring. */
export interface SsoFlowTable {
  state: string;
  hospital_id: number;
  nonce: string;
  code_verifier: string;
  redirect: string;
  expires_at: string;
}

/** A one-time code (its hash) that the browser trades for a session at sso_login_v2. */
export interface SsoCodeTable {
  code_hash: string;
  user_id: number;
  hospital_id: number;
  expires_at: string;
}

/** A QR login request (migration 0028): hashes only; waiting → approved → used, or declined. */
export interface QrLoginTable {
  id_hash: string;
  secret_hash: string;
  status: 'waiting' | 'approved' | 'used' | 'declined';
  user_id: number | null;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
  expires_at: string;
  approved_at: string | null;
}
