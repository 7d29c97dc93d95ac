import type { Db } from '../connect.js';
import type { Storage } from '../../storage/storage.js';
import { SigningKeys } from '../../http/signing-keys.js';
import { insertDocument } from '../../modules/diagnosis/document-queries.js';
import { freezeSigning, type FreezeDeps } from '../../modules/diagnosis/freeze.js';
import type { ReportFontConfig } from '../../modules/diagnosis/pdf.js';
import { SEAL_LIFETIME_MS } from '../../modules/diagnosis/seal.js';
import type { JobType } from '../../modules/jobs/job-type.js';
import { enqueueJob } from '../../modules/jobs/queries.js';
import { loadRuleSets } from '../../modules/schemas/repository.js';
import { RuleStore } from '../../modules/schemas/store.js';

/** The demo's one freeze job (demo-department.ts queues it), deduplicated. */
export const DEMO_FREEZE_JOB = 'demo.freeze_reports';

export interface FreezeOptions {
  storage: Storage;
  publicUrl: string;
  font?: ReportFontConfig;
  /** Only these reports (a test's few); all of them when left out. */
  reportIds?: number[];
}

const isUniqueViolation = (e: unknown) => /unique|duplicate key/i.test(String((e as Error)?.message));

/** Queues the freezing of the seeded signed reports, once (in the seeding transaction). */
export const queueDemoFreeze = (db: Parameters<typeof enqueueJob>[0]) =>
  enqueueJob(db, { type: DEMO_FREEZE_JOB, payload: {}, maxAttempts: 3, dedupeKey: DEMO_FREEZE_JOB });

/**
 * Freezes every signed report (and accepted supplementary one) that has no document yet, oldest first (a
 * supplementary document names the one it supplements), with the sign step's own freezing (freeze.ts: the content,
 * a PDF in each language the hospital issues, hashes and seal) and document store. Each in its own transaction; one
 * another process stored meanwhile (the unique report and version) is left as it is. Answers how many it froze.
 */
export async function freezeSeededReports(db: Db, o: FreezeOptions, progress?: (done: number, total: number) => Promise<unknown>): Promise<number> {
  const rules = new RuleStore(db, loadRuleSets(), () => undefined);
  const deps: FreezeDeps = {
    db, rulesFor: (h) => rules.resolverFor(h), verifyKeys: new SigningKeys(db, 'report_verify', SEAL_LIFETIME_MS),
    output: { storage: o.storage, publicUrl: o.publicUrl, font: o.font, fhirSystemBase: o.publicUrl },
  };
  const todo = await db.selectFrom('reports').selectAll()
    .where('sign_at', 'is not', null).where('verify_code', 'is not', null).where('sub_phase', 'in', ['signed', 'to_issue', 'accept'])
    .where((eb) => eb.not(eb.exists(eb.selectFrom('report_documents').select('report_documents.id').whereRef('report_documents.report_id', '=', 'reports.id'))))
    .$if(!!o.reportIds, (q) => q.where('id', 'in', o.reportIds!.length ? o.reportIds! : [-1]))
    .orderBy('id').execute();
  let done = 0;
  for (const report of todo) {
    const frozen = await freezeSigning(deps, report, report.report_type === 2 ? 'supplementary' : 'signed');
    try {
      await db.transaction().execute((trx) => insertDocument(trx, frozen, report, report.sign_at!));
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
    }
    done++;
    await progress?.(done, todo.length);
  }
  return done;
}

/** The job that runs it after the first start (main.ts's runner). */
export function demoFreezeJob(o: FreezeOptions, leaseMs: number): JobType<unknown> {
  return {
    type: DEMO_FREEZE_JOB, concurrency: 1, maxAttempts: 3, leaseMs, timeLimitMs: 30 * 60_000,
    async run(ctx) {
      await freezeSeededReports(ctx.db, o, (d, total) => ctx.progress(Math.floor((d / total) * 100)));
    },
  };
}
