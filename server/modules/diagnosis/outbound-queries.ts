import type { Kysely } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import type { JobRow } from '../jobs/queries.js';
import type { ApplicationFacts, SpecimenFacts } from './fhir-bundle.js';

type Trx = Kysely<Database>;

/** The hospital's code: what its identifier systems are named by (fhir-systems.ts). */
export async function hospitalCode(db: Db, hospitalId: number): Promise<string> {
  return (await db.selectFrom('hospitals').select('code').where('id', '=', hospitalId).executeTakeFirstOrThrow()).code;
}

/**
 * What a sent report's Bundle says besides the report: the hospital's code, the case's specimens and the application
 * it was registered from. Read through the caller's handle (a request's: the row scope holds).
 */
export async function bundleFacts(db: Db, report: { hospital_id: number; case_id: number }): Promise<{ hospitalCode: string; specimens: SpecimenFacts[]; application: ApplicationFacts | null }> {
  const specimens = await db.selectFrom('case_specimens')
    .select(['seq', 'name', 'status', 'fixative', 'fixed_at', 'location', 'leave_body_at', 'receive_at', 'rejection_reason'])
    .where('case_id', '=', report.case_id).orderBy('seq').execute();
  const application = await db.selectFrom('cases').innerJoin('case_applications', 'case_applications.id', 'cases.apply_id')
    .select(['case_applications.apply_number', 'case_applications.created_at'])
    .where('cases.id', '=', report.case_id).executeTakeFirst();
  return { hospitalCode: await hospitalCode(db, report.hospital_id), specimens, application: application ?? null };
}

/** One live delivery job per report: a second send while one waits joins it (the jobs' dedupe index). */
export const deliveryKey = (reportId: number) => `report-outbound:${reportId}`;

/** The report's delivery still queued or running, if any. */
export const liveDelivery = (db: Db | Trx, key: string) =>
  db.selectFrom('jobs').select('id').where('dedupe_key', '=', key).where('status', 'in', ['queued', 'running']).executeTakeFirst();

/** A report's deliveries to the FHIR receiver, newest first. */
export async function deliveriesOf(db: Db, type: string, reportId: number): Promise<JobRow[]> {
  return (await db.selectFrom('jobs').selectAll().where('type', '=', type).where('dedupe_key', '=', deliveryKey(reportId))
    .orderBy('id', 'desc').limit(50).execute()) as JobRow[];
}

/** Who sent what, and how it ended, as an operation log line of the report's hospital (the audit trail of writes). */
export interface DeliveryLog {
  userId: number | null;
  username: string | null;
  hospitalId: number;
  /** Where it went, without credentials. */
  target: string;
  route: string;
  status: number;
  detail: Record<string, unknown>;
}

export async function logDelivery(db: Db | Trx, entry: DeliveryLog): Promise<void> {
  const payload = JSON.stringify(entry.detail);
  await db.insertInto('operation_logs').values({
    user_id: entry.userId, username: entry.username, method: 'POST', path: entry.target.slice(0, 2000), route: entry.route,
    status_code: entry.status, payload: payload.length > 4000 ? `${payload.slice(0, 4000)}…` : payload, ip: null,
    created_at: new Date().toISOString(), hospital_id: entry.hospitalId,
  }).execute();
}
