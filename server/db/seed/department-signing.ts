import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { SigningKeys } from '../../http/signing-keys.js';
import { syncCase, type ReportRow } from '../../modules/diagnosis/queries.js';
import { SEAL_LIFETIME_MS, signingStamp } from '../../modules/diagnosis/seal.js';

type Trx = Kysely<Database>;

/** The report verification keys on the seeding transaction: the ones the signing route seals with (diagnosis/index.ts). */
export const seedingKeys = (trx: Trx) => new SigningKeys(trx, 'report_verify', SEAL_LIFETIME_MS);

/**
 * Signs a stored report at `at` by `signer` as the sign step writes it (workflow.ts runAction 'sign'; `kind`
 * 'supplementary': the accept of a supplementary report): stamped and sealed, issued, the case following it. `after`
 * (print, send times) is written with it. Its document (content and PDFs) is frozen by the demo's freeze job
 * (department-freeze-job.ts), the same freezing the sign step runs, once the server is up: rendering a hundred PDFs
 * would hold the first start for a minute.
 */
export async function signStored(trx: Trx, keys: SigningKeys, report: ReportRow, kind: 'signed' | 'supplementary', at: string, signer: number, after: Partial<ReportRow> = {}): Promise<ReportRow> {
  const stamp = await signingStamp(keys, report, at, signer);
  const patch: Partial<ReportRow> = kind === 'signed'
    ? { ...stamp, sub_phase: 'signed', release_status: 'yes', issue_at: at }
    : { ...stamp, sub_phase: 'accept', audit_doctor: signer, audit_at: at };
  await trx.updateTable('reports').set({ ...patch, ...after, version: report.version + 1, updated_at: at }).where('id', '=', report.id).execute();
  const row = await trx.selectFrom('reports').selectAll().where('id', '=', report.id).executeTakeFirstOrThrow();
  await syncCase(trx, row, at);
  return row;
}
