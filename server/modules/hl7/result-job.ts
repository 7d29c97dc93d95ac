import type { Db } from '../../db/connect.js';
import type { JobRow } from '../jobs/queries.js';
import { PermanentJobError, type JobType } from '../jobs/job-type.js';
import { encodeJobError } from '../jobs/job-error.js';
import { HL7_DEFAULTS, type Hl7Config } from './config.js';
import { sendMessage } from './mllp-send.js';
import { logHl7Write, messageById, updateMessage } from './queries.js';

export const HL7_RESULT_JOB = 'hl7.result';

/** What a queued result holds: its row in the message log (the ORU as built at the send) and who sent it. */
export interface ResultPayload {
  message_id: number;
  report_id: number;
  hospital_id: number;
  user_id: number | null;
  username: string | null;
}

/**
 * REPORT_OUTBOUND=hl7 (issue 30): a sent report's ORU^R01 delivered to the HIS's MLLP listener from the durable job
 * queue, the same bytes (and control id) on every attempt, so a HIS that took one already can tell the resend. An AA
 * (or CA) ends it; AR, no answer, a refused or dropped connection are tried again after the queue's back-off up to
 * HL7_MAX_ATTEMPTS; an AE (the HIS finds the content wrong) fails it at once. Each attempt's outcome is on its row of
 * the message log (status, attempts, the ACK or the error), the end in the operation log of the report's hospital.
 */
export function hl7ResultJob(cfg: Hl7Config | undefined, leaseMs: number): JobType<ResultPayload> {
  const timeoutMs = cfg?.ackTimeoutMs ?? HL7_DEFAULTS.ackTimeoutMs;
  const target = cfg?.hisHost && cfg.hisPort ? `${cfg.hisHost}:${cfg.hisPort}` : '(HL7_HIS_HOST not set)';
  return {
    type: HL7_RESULT_JOB,
    concurrency: 2,
    maxAttempts: cfg?.maxAttempts ?? HL7_DEFAULTS.maxAttempts,
    leaseMs,
    timeLimitMs: timeoutMs + 30_000,
    async run({ db, job, payload, signal }) {
      if (!cfg?.hisHost || !cfg.hisPort) throw new PermanentJobError('hl7.not_configured');
      const row = await messageById(db, payload.message_id);
      if (!row) throw new PermanentJobError('hl7.message_not_found');
      let ack: string;
      try {
        ack = await sendMessage({ host: cfg.hisHost, port: cfg.hisPort }, row.raw, { timeoutMs, signal });
      } catch (err) {
        const detail = (err as Error).message;
        await updateMessage(db, row.id, { status: 'retrying', error: detail.slice(0, 2000), attempts: job.attempts });
        throw new Error(encodeJobError('hl7.his_unavailable', { detail }), { cause: err });
      }
      const { ackCodeOf } = await import('./message.js');
      const answer = ackCodeOf(ack);
      const code = answer?.code ?? '';
      const detail = answer?.text || (answer ? code : 'no MSA segment in the answer');
      if (code === 'AA' || code === 'CA') {
        await updateMessage(db, row.id, { status: 'acked', ack_code: code, ack, error: null, attempts: job.attempts });
        await logHl7Write(db, {
          hospitalId: payload.hospital_id, sender: payload.username ?? '', route: `job:${HL7_RESULT_JOB}`, target: `mllp:${target}`, status: 200,
          detail: { report_id: payload.report_id, job_id: job.id, message_id: row.id, control_id: row.control_id, attempt: job.attempts, outcome: 'delivered' },
        });
        return;
      }
      await updateMessage(db, row.id, { status: 'retrying', ack_code: code || null, ack, error: detail.slice(0, 2000), attempts: job.attempts });
      if (code === 'AE' || code === 'CE') throw new PermanentJobError(encodeJobError('hl7.his_refused', { code, detail }));
      throw new Error(encodeJobError('hl7.his_unavailable', { detail: `${code || '?'} ${detail}` }));
    },
    async onFinalFailure(db: Db, job: JobRow, error: string) {
      const payload = JSON.parse(job.payload) as ResultPayload;
      await updateMessage(db, payload.message_id, { status: 'failed', attempts: job.attempts });
      await logHl7Write(db, {
        hospitalId: payload.hospital_id, sender: payload.username ?? '', route: `job:${HL7_RESULT_JOB}`, target: `mllp:${target}`, status: 502,
        detail: { report_id: payload.report_id, job_id: job.id, message_id: payload.message_id, attempts: job.attempts, outcome: 'failed', error },
      });
    },
  };
}
