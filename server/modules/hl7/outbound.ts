import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import { emitEvent } from '../../events/bus.js';
import { enqueueJob } from '../jobs/queries.js';
import type { ReportOutbound } from '../diagnosis/outbound.js';
import type { Hl7Config } from './config.js';
import { insertMessage } from './queries.js';
import { HL7_RESULT_JOB, type ResultPayload } from './result-job.js';

/** One live result per report: a second send while one waits joins it (the jobs' dedupe index). */
export const resultKey = (reportId: number) => `hl7-result:${reportId}`;

/** The application and facility results are addressed to (MSH-5, MSH-6): the HIS, at the report's hospital. */
const HIS_APPLICATION = 'HIS';

/**
 * REPORT_OUTBOUND=hl7: a send builds the report's ORU^R01 (results.ts) and queues it, inside the send's transaction,
 * as a row of the message log (status `queued`) and an `hl7.result` job (result-job.ts) that delivers it.
 */
export function hl7Outbound(cfg: Hl7Config): ReportOutbound {
  return {
    name: 'hl7',
    async deliver(trx, _bundle, meta, facts) {
      const live = await trx.selectFrom('jobs').select('id').where('dedupe_key', '=', resultKey(meta.reportId)).where('status', 'in', ['queued', 'running']).executeTakeFirst();
      if (live) return;
      // At most 20 characters (MSH-10 of v2.5), unique per send; kept by every retry of it.
      const controlId = `R${meta.reportId.toString(36)}${Date.now().toString(36)}${randomBytes(2).toString('hex')}`.toUpperCase().slice(0, 20);
      // Loaded on first use: the HL7 library's dictionaries stay out of an installation that sends no results.
      const { resultMessage } = await import('./results.js');
      const raw = resultMessage(facts, controlId, { application: HIS_APPLICATION, facility: facts.hospitalCode });
      const messageId = await insertMessage(trx, {
        direction: 'out', hospital_id: meta.hospitalId, message_type: 'ORU^R01', control_id: controlId, peer: `${cfg.hisHost}:${cfg.hisPort}`,
        status: 'queued', raw, detail: JSON.stringify({ report_id: meta.reportId }),
      });
      const payload: ResultPayload = { message_id: messageId, report_id: meta.reportId, hospital_id: meta.hospitalId, user_id: meta.userId, username: meta.username };
      await enqueueJob(trx, { type: HL7_RESULT_JOB, payload, maxAttempts: cfg.maxAttempts, dedupeKey: resultKey(meta.reportId) });
    },
    committed: (db: Db) => emitEvent(db, 'jobs.queued', { type: HL7_RESULT_JOB }),
  };
}
