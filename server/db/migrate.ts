import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './connect.js';
import * as m0001 from './migrations/0001_foundation.js';
import * as m0002 from './migrations/0002_schema_engine.js';
import * as m0003 from './migrations/0003_admin_tables.js';
import * as m0004 from './migrations/0004_slides.js';
import * as m0005 from './migrations/0005_cases.js';
import * as m0006 from './migrations/0006_collections.js';
import * as m0007 from './migrations/0007_slide_format_note.js';
import * as m0008 from './migrations/0008_slide_sections.js';
import * as m0009 from './migrations/0009_login_security.js';
import * as m0010 from './migrations/0010_signing_keys.js';
import * as m0011 from './migrations/0011_rule_overrides.js';
import * as m0012 from './migrations/0012_page_language_2.js';
import * as m0013 from './migrations/0013_slide_annotations.js';
import * as m0014 from './migrations/0014_jobs.js';
import * as m0015 from './migrations/0015_case_lifecycle.js';
import * as m0016 from './migrations/0016_role_en_name.js';
import * as m0024 from './migrations/0024_messages.js';
import * as m0018 from './migrations/0018_slide_shares.js';
import * as m0019 from './migrations/0019_reports.js';
import * as m0023 from './migrations/0023_scanners_qc.js';
import * as m0025 from './migrations/0025_meetings.js';
import * as m0026 from './migrations/0026_statistics_indexes.js';
import * as m0026b from './migrations/0026b_slide_labels.js';
import * as m0027 from './migrations/0027_sso.js';
import * as m0028 from './migrations/0028_qr_logins.js';
import * as m0029 from './migrations/0029_webauthn.js';
import * as m0030 from './migrations/0030_prices.js';
import * as m0032 from './migrations/0032_auth_misc.js';
import * as m0033 from './migrations/0033_sealed_secrets.js';
import * as m0034 from './migrations/0034_message_type.js';
import * as m0035 from './migrations/0035_share_recipient.js';
import * as m0036 from './migrations/0036_application_steps.js';
import * as m0037 from './migrations/0037_subspecialties.js';
import * as m0038 from './migrations/0038_message_case.js';
import * as m0039 from './migrations/0039_report_documents.js';
import * as m0040 from './migrations/0040_operation_log_hospital.js';

/** Migrations are imported, not globbed from disk, so they run the same under tsx, a bundle or a test. */
const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_schema_engine': m0002,
  '0003_admin_tables': m0003,
  '0004_slides': m0004,
  '0005_cases': m0005,
  '0006_collections': m0006,
  '0007_slide_format_note': m0007,
  '0008_slide_sections': m0008,
  '0009_login_security': m0009,
  '0010_signing_keys': m0010,
  '0011_rule_overrides': m0011,
  '0012_page_language_2': m0012,
  '0013_slide_annotations': m0013,
  '0014_jobs': m0014,
  '0015_case_lifecycle': m0015,
  '0016_role_en_name': m0016,
  '0024_messages': m0024,
  '0018_slide_shares': m0018,
  '0019_reports': m0019,
  '0023_scanners_qc': m0023,
  '0025_meetings': m0025,
  '0026_statistics_indexes': m0026,
  '0026b_slide_labels': m0026b,
  '0027_sso': m0027,
  '0028_qr_logins': m0028,
  '0029_webauthn': m0029,
  '0030_prices': m0030,
  '0032_auth_misc': m0032,
  '0033_sealed_secrets': m0033,
  '0034_message_type': m0034,
  '0035_share_recipient': m0035,
  '0036_application_steps': m0036,
  '0037_subspecialties': m0037,
  '0038_message_case': m0038,
  '0039_report_documents': m0039,
  '0040_operation_log_hospital': m0040,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * `schema`: the PostgreSQL schema the database lives in, when not the default. Kysely looks for its
 * migration tables across every schema otherwise, and another schema's tables would fool it.
 */
export async function migrateToLatest(db: Db, schema?: string): Promise<void> {
  return migrateUpTo(db, undefined, schema);
}

/** Up to and including `target` (all when undefined): lets a test stand where an older release left a database. */
export async function migrateUpTo(db: Db, target: string | undefined, schema?: string): Promise<void> {
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await (target ? migrator.migrateTo(target) : migrator.migrateToLatest());
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
