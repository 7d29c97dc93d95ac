import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_schema_engine.js';
import * as m0003 from './0003_admin_tables.js';
import * as m0004 from './0004_slides.js';
import * as m0005 from './0005_cases.js';
import * as m0006 from './0006_collections.js';
import * as m0007 from './0007_slide_format_note.js';
import * as m0008 from './0008_slide_sections.js';
import * as m0009 from './0009_login_security.js';
import * as m0010 from './0010_signing_keys.js';
import * as m0011 from './0011_rule_overrides.js';
import * as m0012 from './0012_page_language_2.js';
import * as m0013 from './0013_slide_annotations.js';
import * as m0014 from './0014_jobs.js';
import * as m0015 from './0015_case_lifecycle.js';
import * as m0016 from './0016_role_en_name.js';
import * as m0018 from './0018_slide_shares.js';
import * as m0019 from './0019_reports.js';
import * as m0023 from './0023_scanners_qc.js';
import * as m0024 from './0024_messages.js';
import * as m0025 from './0025_meetings.js';
import * as m0026 from './0026_statistics_indexes.js';
import * as m0026b from './0026b_slide_labels.js';
import * as m0027 from './0027_sso.js';
import * as m0028 from './0028_qr_logins.js';
import * as m0029 from './0029_webauthn.js';
import * as m0030 from './0030_prices.js';
import * as m0032 from './0032_auth_misc.js';
import * as m0033 from './0033_sealed_secrets.js';
import * as m0034 from './0034_message_type.js';
import * as m0035 from './0035_share_recipient.js';
import * as m0036 from './0036_application_steps.js';
import * as m0037 from './0037_subspecialties.js';
import * as m0038 from './0038_message_case.js';
import * as m0039 from './0039_report_documents.js';
import * as m0040 from './0040_operation_log_hospital.js';
import * as m0041 from './0041_shared_uploads.js';
import * as m0042 from './0042_hl7.js';
import * as m0043 from './0043_dicom_uid_namespace.js';
import * as m0044 from './0044_case_image_dicom.js';
import * as m0045 from './0045_hospital_areas.js';
import * as m0046 from './0046_department_archive.js';
import * as m0047 from './0047_department_consumables.js';
import * as m0048 from './0048_department_attendance.js';
import * as m0049 from './0049_department_logistics.js';
import * as m0050 from './0050_department_consultation.js';
import * as m0051 from './0051_teaching_exams.js';

/** What a migration may take from the installation rather than from code: today only the secrets key. */
export interface MigrationContext {
  /** The installation's secrets key (0033 seals stored secrets with it). */
  secretsKey: () => Buffer;
}

type Entry = readonly [name: string, migration: Migration | ((key: MigrationContext['secretsKey']) => Migration)];

/**
 * Every migration, once, in the order it runs (Kysely runs them by name; migrate.test.ts checks this list matches
 * the files). A new migration is a file in this folder and a line at the end here. A migration imports only
 * kysely, node builtins and what sits in this folder (frozen/ holds copies of the code and data some needed),
 * so what it does never changes when today's modules or schemas/ do. Imported, not globbed from disk, so they
 * run the same under tsx, a bundle or a test.
 */
export const REGISTRY: readonly Entry[] = [
  ['0001_foundation', m0001],
  ['0002_schema_engine', m0002],
  ['0003_admin_tables', m0003],
  ['0004_slides', m0004],
  ['0005_cases', m0005],
  ['0006_collections', m0006],
  ['0007_slide_format_note', m0007],
  ['0008_slide_sections', m0008],
  ['0009_login_security', m0009],
  ['0010_signing_keys', m0010],
  ['0011_rule_overrides', m0011],
  ['0012_page_language_2', m0012],
  ['0013_slide_annotations', m0013],
  ['0014_jobs', m0014],
  ['0015_case_lifecycle', m0015],
  ['0016_role_en_name', m0016],
  ['0018_slide_shares', m0018],
  ['0019_reports', m0019],
  ['0023_scanners_qc', m0023],
  ['0024_messages', m0024],
  ['0025_meetings', m0025],
  ['0026_statistics_indexes', m0026],
  ['0026b_slide_labels', m0026b],
  ['0027_sso', m0027],
  ['0028_qr_logins', m0028],
  ['0029_webauthn', m0029],
  ['0030_prices', m0030],
  ['0032_auth_misc', m0032],
  ['0033_sealed_secrets', m0033.sealedSecrets],
  ['0034_message_type', m0034],
  ['0035_share_recipient', m0035],
  ['0036_application_steps', m0036],
  ['0037_subspecialties', m0037],
  ['0038_message_case', m0038],
  ['0039_report_documents', m0039],
  ['0040_operation_log_hospital', m0040],
  ['0041_shared_uploads', m0041],
  ['0042_hl7', m0042],
  ['0043_dicom_uid_namespace', m0043],
  ['0044_case_image_dicom', m0044],
  ['0045_hospital_areas', m0045],
  ['0046_department_archive', m0046],
  ['0047_department_consumables', m0047],
  ['0048_department_attendance', m0048],
  ['0049_department_logistics', m0049],
  ['0050_department_consultation', m0050],
  ['0051_teaching_exams', m0051],
];

/** The registry as Kysely's migrator takes it, each migration given what it needs from the installation. */
export function migrationsFor(context: MigrationContext): Record<string, Migration> {
  return Object.fromEntries(REGISTRY.map(([name, m]) => [name, typeof m === 'function' ? m(context.secretsKey) : m]));
}
