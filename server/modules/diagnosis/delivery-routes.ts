import { Type } from '@sinclair/typebox';
import { ok } from '../../http/envelope.js';
import type { TypedApp } from '../../http/types.js';
import { jobView } from '../jobs/routes.js';
import { scopeOf, type DiagnosisDeps } from './deps.js';
import { REPORT_OUTBOUND_JOB } from './outbound-job.js';
import { deliveriesOf } from './outbound-queries.js';
import { reportVisible } from './report-data.js';
import { okResponse } from '../../http/responses.js';

const VIEW = { access: { permission: 'case_view' }, audit: false } as const;

/**
 * `GET /api/diagnosis/reports/:id/deliveries`: where a sent report's posts to the FHIR receiver stand
 * (REPORT_OUTBOUND=fhir), newest first: queued, running, done, or failed with the receiver's reason in the reader's
 * language; attempts and when the next one is due. For readers of the report (its hospital and directory).
 */
export function deliveryRoutes(app: TypedApp, deps: DiagnosisDeps): void {
  app.get('/api/diagnosis/reports/:id/deliveries', {
    config: VIEW, schema: { tags: ['diagnosis'], params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }), response: okResponse() },
  }, async (r) => {
    const report = await reportVisible(deps.db, r.params.id, scopeOf(r));
    return ok((await deliveriesOf(deps.db, REPORT_OUTBOUND_JOB, report.id)).map((job) => jobView(job, r.lang)));
  });
}
