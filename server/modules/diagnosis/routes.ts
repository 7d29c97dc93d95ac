import { ok } from '../../http/envelope.js';
import type { TypedApp } from '../../http/types.js';
import { caseInScope } from '../cases/lifecycle-queries.js';
import { ActionBody, ActionParams, CreateBody, DelayBody, FlagsBody, Id, PrintBatchBody, SaveBody, UrgentBody } from './bodies.js';
import { scopeOf, type DiagnosisDeps } from './deps.js';
import { editorData, reportOut } from './editor-data.js';
import { setUrgent } from './queries.js';
import { createReport, delayReport, printBatch, runAction, saveReport, setFlags } from './workflow.js';
import { file } from './report-file.js';
import { AppError } from '../../http/errors.js';
import { mayRunReportAction } from '../../../src/core/reportWorkflow.js';
import { binaryResponse, okResponse } from '../../http/responses.js';

const tags = ['diagnosis'];
const DIAGNOSE = { access: { permission: 'case_diagnosis' } };

/**
 * The diagnosis workflow (issue 15): the editor's data, reports created, saved (optimistic version: a second doctor
 * is told, never overwritten), and moved first → audit → sign → print → send, with recall during the hesitation
 * period, delayed reports, follow-up, evaluation, urgent, and supplementary reports (draft → new → accept / reject).
 * Each step: permission code (guard), hospital scope, the role rule of schemas/rules/workflow.json, the state;
 * one transaction with the case's copy of its latest report and its timeline entry; the operation log records it.
 */
export function diagnosisRoutes(app: TypedApp, deps: DiagnosisDeps): void {
  const out = (row: Parameters<typeof reportOut>[0]) => ok(reportOut(row));

  app.get('/api/diagnosis/:id', { config: { ...DIAGNOSE, audit: false }, schema: { tags, params: Id, response: okResponse() } }, async (r) => ok(await editorData(deps, r, r.params.id)));
  app.post('/api/diagnosis/:id/reports', { config: DIAGNOSE, schema: { tags, params: Id, body: CreateBody, response: okResponse() } }, async (r) => out(await createReport(deps, r, r.params.id, r.body)));
  app.put('/api/diagnosis/reports/:id', { config: DIAGNOSE, schema: { tags, params: Id, body: SaveBody, response: okResponse() } }, async (r) => out(await saveReport(deps, r, r.params.id, r.body)));
  app.post('/api/diagnosis/reports/:id/actions/:action', { config: DIAGNOSE, schema: { tags, params: ActionParams, body: ActionBody, response: okResponse() } },
    async (r) => out(await runAction(deps, r, r.params.id, r.params.action as Parameters<typeof runAction>[3], r.body)));
  app.post('/api/diagnosis/reports/print-batch', { config: DIAGNOSE, schema: { tags, body: PrintBatchBody, response: binaryResponse('application/pdf') } },
    async (r, reply) => file(reply, await printBatch(deps, r, r.body), 'application/pdf', 'reports.pdf', 'inline'));
  app.post('/api/diagnosis/reports/:id/delay', { config: DIAGNOSE, schema: { tags, params: Id, body: DelayBody, response: okResponse() } }, async (r) => out(await delayReport(deps, r, r.params.id, r.body)));
  app.patch('/api/diagnosis/reports/:id/flags', { config: DIAGNOSE, schema: { tags, params: Id, body: FlagsBody, response: okResponse() } }, async (r) => out(await setFlags(deps, r, r.params.id, r.body)));

  // Urgent (spec §4 urgent toggle): the case's expedite_status, which the case-status markers and stage words read.
  app.post('/api/diagnosis/:id/urgent', { config: DIAGNOSE, schema: { tags, params: Id, body: UrgentBody, response: okResponse() } }, async (r) => {
    const c = await caseInScope(deps.db, r.params.id, scopeOf(r));
    if (!mayRunReportAction('save', r.auth!.identification, { case: c }, await deps.rulesFor(c.hospital_id))) throw new AppError(403, 'diagnosis.role_refused', { action: 'urgent' });
    await setUrgent(deps.db, c, r.body.urgent, r.auth!, new Date().toISOString());
    return ok({ id: c.id, expedite_status: r.body.urgent ? 1 : 0 });
  });
}
