import type { ReportTables } from './schema/reports.js';
import type { HospitalTable, UserTable, RoleTable, UserRoleTable, UserHospitalTable, UserSubspecialtyTable, SubspecialtyTable, RoleMenuTable, PermissionTable, MenuTable } from './schema/users.js';
import type { AuthKeyTable, AuthChallengeTable, AuthTokenTable, SigningKeyTable, QrLoginTable, WebauthnCredentialTable } from './schema/auth.js';
import type { SsoConfigTable, SsoFlowTable, SsoCodeTable, SsoSessionTable } from './schema/sso.js';
import type { SettingTable, PageSchemaVersionTable, ColumnPreferenceTable, LabelTable, ReagentTable, NumberingRuleTable, NumberingCounterTable, PriceItemTable } from './schema/settings.js';
import type { LoginLogTable, OperationLogTable, ErrorLogTable, SectionLogTable } from './schema/logs.js';
import type { CaseTable, CaseApplicationTable, CaseSpecimenTable, CaseBlockTable, TechnicalOrderTable, CaseTimelineTable, CaseImageTable, CaseChargeTable } from './schema/cases.js';
import type { SlideTable, SlideSectionTable, SlideAnnotationTable, SlideShareTable, SlideLabelTable, CollectionCategoryTable, CollectionTable, TeachingLinkTable } from './schema/slides.js';
import type { ScannerTable, ScanJobTable, SlideQcTable, SlideFocusTable, QcDictTable } from './schema/qc.js';
import type { MessageTable, MeetingTable, MeetingSlideTable, MeetingParticipantTable } from './schema/messages.js';
import type { JobTable, AttachmentTable } from './schema/system.js';

export type * from './schema/users.js';
export type * from './schema/auth.js';
export type * from './schema/sso.js';
export type * from './schema/settings.js';
export type * from './schema/logs.js';
export type * from './schema/cases.js';
export type * from './schema/slides.js';
export type * from './schema/qc.js';
export type * from './schema/messages.js';
export type * from './schema/system.js';
export type * from './schema/reports.js';

/**
 * The Kysely database: every table by name. The row interfaces live by domain under ./schema/.
 * Times are ISO-8601 UTC strings and JSON is text, so SQLite and PostgreSQL store the same values.
 */
export interface Database extends ReportTables {
  hospitals: HospitalTable;
  users: UserTable;
  roles: RoleTable;
  user_roles: UserRoleTable;
  user_hospitals: UserHospitalTable;
  user_subspecialties: UserSubspecialtyTable;
  subspecialties: SubspecialtyTable;
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
  webauthn_credentials: WebauthnCredentialTable;
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
  price_items: PriceItemTable;
  case_charges: CaseChargeTable;
  sso_sessions: SsoSessionTable;
  teaching_links: TeachingLinkTable;
}
