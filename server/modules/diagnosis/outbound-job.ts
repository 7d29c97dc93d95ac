import type { Db } from '../../db/connect.js';
import type { JobRow } from '../jobs/queries.js';
import { PermanentJobError, type JobType } from '../jobs/job-type.js';
import { encodeJobError } from '../jobs/job-error.js';
import { FHIR_DEFAULTS, type FhirOutboundConfig } from './outbound-config.js';
import { logDelivery } from './outbound-queries.js';
import { postBundle } from './fhir-post.js';
import type { TransactionBundle } from './fhir-bundle.js';

export const REPORT_OUTBOUND_JOB = 'diagnosis.report-outbound';
const ROUTE = `job:${REPORT_OUTBOUND_JOB}`;

/** What a queued delivery holds: the Bundle as it was built at the send (so every attempt posts the same bytes) and who sent it. */
export interface OutboundPayload {
  report_id: number;
  hospital_id: number;
  user_id: number | null;
  username: string | null;
  bundle: TransactionBundle;
}

/** The receiver's address as logged: no user name or password a URL might carry. */
const target = (baseUrl: string | undefined) => {
  if (!baseUrl) return '(FHIR_BASE_URL not set)';
  const u = new URL(baseUrl);
  return `${u.origin}${u.pathname}`;
};

/**
 * REPORT_OUTBOUND=fhir (issue 30): a sent report's transaction Bundle posted to FHIR_BASE_URL from the durable job
 * queue. The send queued it in its own transaction, so a send that is recorded always has its delivery, and a
 * process killed mid-post leaves the row to be claimed again once its lease lapses (the Bundle's conditional
 * entries make a second post of what the receiver already stored change nothing). A receiver that is down, slow or
 * overloaded is tried again after the queue's back-off (30 s, 2 min, 8 min, … at most hourly) up to FHIR_MAX_ATTEMPTS;
 * one that refuses the Bundle (a 4xx other than 408/425/429) fails it at once. How it ended is on the job
 * (`GET /api/diagnosis/reports/:id/deliveries`) and in the operation log of the report's hospital.
 */
export function reportOutboundJob(cfg: FhirOutboundConfig | undefined, leaseMs: number): JobType<OutboundPayload> {
  const timeoutMs = cfg?.timeoutMs ?? FHIR_DEFAULTS.timeoutMs;
  return {
    type: REPORT_OUTBOUND_JOB,
    // Posts wait on the network, not the CPU: a few at once keep a slow receiver from holding up the rest.
    concurrency: 4,
    maxAttempts: cfg?.maxAttempts ?? FHIR_DEFAULTS.maxAttempts,
    leaseMs,
    // One post and its answer; past this the attempt is stopped and failed.
    timeLimitMs: timeoutMs + 30_000,
    async run({ db, job, payload, signal }) {
      if (!cfg?.baseUrl) throw new PermanentJobError('diagnosis.fhir_not_configured');
      const outcome = await postBundle({ ...cfg, baseUrl: cfg.baseUrl }, payload.bundle, signal);
      if (outcome.kind === 'delivered') {
        await logDelivery(db, {
          userId: payload.user_id, username: payload.username, hospitalId: payload.hospital_id, target: target(cfg.baseUrl), route: ROUTE,
          status: outcome.status, detail: { report_id: payload.report_id, job_id: job.id, attempt: job.attempts, outcome: 'delivered' },
        });
        return;
      }
      const error = encodeJobError(outcome.kind === 'retry' ? 'diagnosis.fhir_unavailable' : 'diagnosis.fhir_refused', {
        status: String(outcome.status || '—'), detail: outcome.detail,
      });
      if (outcome.kind === 'refused') throw new PermanentJobError(error);
      throw new Error(error);
    },
    async onFinalFailure(db: Db, job: JobRow, error: string) {
      const payload = JSON.parse(job.payload) as OutboundPayload;
      await logDelivery(db, {
        userId: payload.user_id, username: payload.username, hospitalId: payload.hospital_id, target: target(cfg?.baseUrl), route: ROUTE,
        status: statusOf(error), detail: { report_id: payload.report_id, job_id: job.id, attempts: job.attempts, outcome: 'failed', error },
      });
    },
  };
}

/** The receiver's status kept in a stored error, else 502 (nothing usable came back). */
function statusOf(error: string): number {
  try {
    const status = Number((JSON.parse(error) as { params?: { status?: string } }).params?.status);
    return Number.isInteger(status) && status >= 400 ? status : 502;
  } catch {
    return 502;
  }
}
