import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { Storage } from '../../storage/storage.js';
import type { RuleResolver } from '../../../src/core/rules.js';
import { SigningKeys } from '../../http/signing-keys.js';
import type { DiagnosisDeps } from '../../modules/diagnosis/deps.js';
import { insertDocument } from '../../modules/diagnosis/document-queries.js';
import { freezeSigning } from '../../modules/diagnosis/freeze.js';
import { reportOutbound } from '../../modules/diagnosis/outbound.js';
import type { ReportFontConfig } from '../../modules/diagnosis/pdf.js';
import { syncCase, type ReportRow } from '../../modules/diagnosis/queries.js';
import { SEAL_LIFETIME_MS, signingStamp } from '../../modules/diagnosis/seal.js';
import type { RuleStore } from '../../modules/schemas/store.js';

type Trx = Kysely<Database>;

export interface SigningOptions {
  storage: Storage;
  publicUrl: string;
  font?: ReportFontConfig;
  /** Each demo hospital's rules, resolved before the seeding transaction (the rule store reads outside it). */
  resolvers: Map<number, RuleResolver>;
}

/**
 * What a signing needs of the diagnosis module, on the seeding transaction: the same verification keys, freezing
 * and document store the signing route uses (workflow.ts runAction 'sign' / 'accept'), so a demo report's PDF and
 * verification page are those of a report signed in the app. Nothing is delivered (the outbound adapter is 'none').
 */
export function signingDeps(trx: Trx, o: SigningOptions): DiagnosisDeps {
  const rulesFor = (h: number) => Promise.resolve(o.resolvers.get(h)!);
  return {
    db: trx, systemDb: trx, rulesFor, rules: undefined as unknown as RuleStore,
    verifyKeys: new SigningKeys(trx, 'report_verify', SEAL_LIFETIME_MS),
    outbound: reportOutbound(undefined, ''),
    output: { storage: o.storage, publicUrl: o.publicUrl, font: o.font, fhirSystemBase: o.publicUrl },
  };
}

/**
 * Signs a stored report at `at` by `signer` as the sign step does: stamped and sealed, its document frozen (content
 * and a PDF in each language the hospital issues) and stored, the case following it. `kind` 'supplementary' is
 * the accept of a supplementary report. `after` (print, send times) is written with it.
 */
export async function signStored(deps: DiagnosisDeps, report: ReportRow, kind: 'signed' | 'supplementary', at: string, signer: number, after: Partial<ReportRow> = {}): Promise<ReportRow> {
  const stamp = await signingStamp(deps.verifyKeys, report, at, signer);
  const patch: Partial<ReportRow> = kind === 'signed'
    ? { ...stamp, sub_phase: 'signed', release_status: 'yes', issue_at: at }
    : { ...stamp, sub_phase: 'accept', audit_doctor: signer, audit_at: at };
  const signed = { ...report, ...patch, version: report.version + 1, updated_at: at };
  const frozen = await freezeSigning(deps, signed, kind);
  const trx = deps.db as Trx;
  const { id: _id, ...columns } = signed;
  await trx.updateTable('reports').set({ ...columns, ...after }).where('id', '=', report.id).execute();
  const row = await trx.selectFrom('reports').selectAll().where('id', '=', report.id).executeTakeFirstOrThrow();
  await insertDocument(trx, frozen, signed, at);
  await syncCase(trx, row, at);
  return row;
}
