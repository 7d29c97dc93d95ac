import { Type } from '@sinclair/typebox';
import { PageParam, pageParams } from '../../resources/list-query.js';
import { doctorsCovering } from './subspecialty.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { workingHospital } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { CASE_PHASES } from '../../../src/core/caseLifecycle.js';
import { ruleProblems } from '../../../src/core/pathologyNumber.js';
import {
  CaseId, ClinicApplyBody, DistributeBody, NumberBody, NumberingRuleBody, OrdersBody, ReasonBody, RegisterBody, RejectBody, SampleBody, SlideBatchBody, SlideBatchCheckBody, SlideStepBody, SpecimenIdsBody,
} from './lifecycle-bodies.js';
import { addTimeline, blocksOf, caseInScope, hospitalOf, orderReagents, ordersOf, reportsOfCase, sectionsOfBlocks, slidesOfCase, specimensOf, timelineOf } from './lifecycle-queries.js';
import { rulesOf, saveRule } from './numbering.js';
import { addOrders } from './orders.js';
import { apply, changeNumber, register, rejectApplication } from './registration.js';
import { checkBatchCodes, makeSlidesInBatch } from './slide-batch.js';
import { distribute, makeSlides } from './slide-making.js';
import { receive, reject, sample } from './specimens.js';
import { casesByStatus, statusCounts } from './status-groups.js';
import { reportStage, withDisplay } from './status.js';
import { labelsOf } from './labels.js';
import { stuckCases } from './stuck.js';
import { stepApplication } from './applications.js';
import { exportCases } from './export.js';
import { requireRole, scopeOf, type LabDeps } from './transition.js';
import { primaryWorkload } from './workload.js';
import { HisUnavailable } from '../his/index.js';
import { binaryResponse, okResponse, XLSX } from '../../http/responses.js';

const tags = ['resource:cases'];
const perm = (permission: string) => ({ access: { permission } });
/** The case status lists' paging (pageParams): 100 a page by default, at most 500. */
const CASE_PAGES = { defaultSize: 100, maxSize: 500, maxPage: 1_000_000 };

/**
 * The case's life in the lab as commands (issue 10): each route checks its permission code (guard), the case's
 * hospital, the actor's role (schemas/rules/case-transitions.json) and the case's state, and runs in one
 * transaction with its timeline entry; the operation log records the request. Answers the case with its status.
 */
export function lifecycleRoutes(app: TypedApp, deps: LabDeps): void {
  const shown = async <T extends { hospital_id: number }>(row: T) => ok(withDisplay(row, await deps.rulesFor(row.hospital_id)));

  app.post('/api/pathology/applications/apply', { config: perm('case_apply'), schema: { tags, body: ClinicApplyBody, response: okResponse() } }, async (r) => ok(await apply(deps, r, r.body)));
  // SlideApply's "Register": the case from the application as the clinic filled it in, its specimens the ones it named.
  app.post('/api/pathology/applications/:id/register', { config: perm('case_register'), schema: { tags, params: CaseId, response: okResponse() } },
    async (r) => shown(await register(deps, r, { application_id: r.params.id, specimens: [] }, { applicationSpecimens: true })));
  app.post('/api/pathology/applications/:id/reject', { config: perm('case_register'), schema: { tags, params: CaseId, body: ReasonBody, response: okResponse() } },
    async (r) => ok(await rejectApplication(deps, r, r.params.id, r.body.reason)));
  // SlideApply's middle states: the clinic dispatches the specimen (1), the lab receives it (2); applications.ts.
  app.post('/api/pathology/applications/:id/dispatch', { config: perm('case_apply'), schema: { tags, params: CaseId, response: okResponse() } },
    async (r) => ok(await stepApplication(deps, r, r.params.id, 'dispatch_application')));
  app.post('/api/pathology/applications/:id/receive', { config: perm('case_register'), schema: { tags, params: CaseId, response: okResponse() } },
    async (r) => ok(await stepApplication(deps, r, r.params.id, 'receive_application')));

  app.post('/api/pathology/register', { config: perm('case_register'), schema: { tags, body: RegisterBody, response: okResponse() } }, async (r) => shown(await register(deps, r, r.body)));
  app.post('/api/pathology/:id/receive', { config: perm('case_register'), schema: { tags, params: CaseId, body: SpecimenIdsBody, response: okResponse() } },
    async (r) => shown(await receive(deps, r, r.params.id, r.body.specimen_ids)));
  app.post('/api/pathology/:id/reject', { config: perm('case_register'), schema: { tags, params: CaseId, body: RejectBody, response: okResponse() } },
    async (r) => shown(await reject(deps, r, r.params.id, r.body.specimen_ids, r.body.reason)));
  app.post('/api/pathology/:id/sample', { config: perm('case_sample'), schema: { tags, params: CaseId, body: SampleBody, response: okResponse() } },
    async (r) => shown(await sample(deps, r, r.params.id, r.body)));
  // Before the :id route's siblings: one step for every scanned or chosen code, in one transaction (slide-batch.ts).
  app.post('/api/pathology/make-slides/batch', { config: perm('case_production'), schema: { tags, body: SlideBatchBody, response: okResponse() } },
    async (r) => ok(await makeSlidesInBatch(deps, r, r.body)));
  // The scan dialog's per-code status (which case, at the step or not) before the batch is sent; writes nothing.
  app.post('/api/pathology/make-slides/check', { config: { ...perm('case_production'), audit: false }, schema: { tags, body: SlideBatchCheckBody, response: okResponse() } },
    async (r) => ok(await checkBatchCodes(deps, r, r.body)));
  app.post('/api/pathology/:id/make-slides', { config: perm('case_production'), schema: { tags, params: CaseId, body: SlideStepBody, response: okResponse() } },
    async (r) => shown(await makeSlides(deps, r, r.params.id, r.body)));
  app.post('/api/pathology/:id/distribute', { config: perm('case_allocation'), schema: { tags, params: CaseId, body: DistributeBody, response: okResponse() } },
    async (r) => shown(await distribute(deps, r, r.params.id, r.body.doctor_id)));
  app.post('/api/pathology/:id/orders', { config: perm('case_order'), schema: { tags, params: CaseId, body: OrdersBody, response: okResponse() } },
    async (r) => shown(await addOrders(deps, r, r.params.id, r.body)));
  // The order form's reagent choices: who may order may see them without managing reagents (reagent_manage).
  app.get('/api/pathology/order-reagents', { config: { ...perm('case_order'), audit: false }, schema: { tags, response: okResponse() } }, async () => ok(await orderReagents(deps.db)));
  app.post('/api/pathology/:id/number', { config: perm('case_id_update'), schema: { tags, params: CaseId, body: NumberBody, response: okResponse() } },
    async (r) => shown(await changeNumber(deps, r, r.params.id, r.body.new_number)));

  // The case detail page: the case with its status, what the lab made of it and its timeline (who, when, what).
  app.get('/api/pathology/:id/lab', { config: { ...perm('case_view'), audit: false }, schema: { tags, params: CaseId, response: okResponse() } }, async (r) => {
    const row = await caseInScope(deps.db, r.params.id, scopeOf(r));
    const [specimens, blocks, sections, orders, timeline, slides, reports, hospital] = await Promise.all([
      specimensOf(deps.db, row.id), blocksOf(deps.db, row.id), sectionsOfBlocks(deps.db, row.id), ordersOf(deps.db, row.id), timelineOf(deps.db, row.id),
      slidesOfCase(deps.db, row.id), reportsOfCase(deps.db, row.id), hospitalOf(deps.db, row.hospital_id),
    ]);
    const resolve = await deps.rulesFor(row.hospital_id);
    return ok({
      case: { ...withDisplay(row, resolve), hospital_name: hospital?.name ?? null, hospital_en_name: hospital?.en_name ?? null },
      specimens, blocks, sections, orders, timeline, slides, reports: reports.map((report) => reportStage(report, resolve)),
    });
  });

  // Status tabs of CaseList (spec §4 status, §2 tabs with counts), by the hospital's case-status rule (status-groups.ts).
  const scopedRules = async (r: Parameters<typeof scopeOf>[0]) => ({ hospitals: scopeOf(r), resolve: await deps.rulesFor(workingHospital(r)) });
  const View = Type.Optional(Type.Union([Type.Literal('status'), Type.Literal('stages')], { description: 'status (default): the displayed status; stages: the stage words' }));
  app.get('/api/pathology/status-counts', { config: { ...perm('case_view'), audit: false }, schema: { tags, querystring: Type.Object({ view: View }), response: okResponse() } }, async (r) => {
    const { hospitals, resolve } = await scopedRules(r);
    return ok(await statusCounts(deps.db, hospitals, resolve, r.query.view));
  });
  app.get('/api/pathology/by-status', {
    config: { ...perm('case_view'), audit: false },
    schema: {
      tags,
      querystring: Type.Object({
        status: Type.String({ minLength: 1, maxLength: 400, pattern: '^[A-Za-z0-9_]+(,[A-Za-z0-9_]+)*$', description: 'status keys, comma-separated' }),
        page: PageParam,
        page_size: PageParam,
        view: View,
      }), response: okResponse()
    },
  }, async (r) => {
    const { hospitals, resolve } = await scopedRules(r);
    const { page, pageSize } = pageParams(r.query, CASE_PAGES);
    return ok(await casesByStatus(deps.db, hospitals, resolve, r.query.status.split(',').slice(0, 20), page, pageSize, r.query.view));
  });

  app.get('/api/pathology/stuck', {
    config: { ...perm('case_view'), audit: false },
    schema: {
      tags,
      querystring: Type.Object({
        hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 24 * 366, description: 'in the phase longer than this; omitted: each phase\'s own limit (setting case_phase_hours)' })),
        main_phase: Type.Optional(Type.Union(CASE_PHASES.map((p) => Type.Literal(p)))),
        page: PageParam,
        page_size: PageParam,
      }), response: okResponse()
    },
  }, async (r) => ok(await stuckCases(deps.db, scopeOf(r), { hours: r.query.hours, mainPhase: r.query.main_phase, ...pageParams(r.query, CASE_PAGES) })));

  // Labels (issue 10): the print-ready data of a case's cassettes or slides, and the print itself logged on the timeline.
  const LabelKind = Type.Union([Type.Literal('cassette'), Type.Literal('slide')]);
  app.get('/api/pathology/:id/labels', {
    config: { ...perm('case_view'), audit: false },
    schema: { tags, params: CaseId, querystring: Type.Object({ kind: LabelKind, symbology: Type.Optional(Type.Union([Type.Literal('code128'), Type.Literal('datamatrix')])) }), response: okResponse() },
  }, async (r) => ok(await labelsOf(deps.db, await caseInScope(deps.db, r.params.id, scopeOf(r)), r.query.kind, r.query.symbology ?? 'code128')));
  app.post('/api/pathology/:id/labels/print', {
    config: perm('case_view'),
    schema: { tags, params: CaseId, body: Type.Object({ kind: LabelKind, ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 500 }), reprint: Type.Optional(Type.Boolean()) }, { additionalProperties: false }), response: okResponse() },
  }, async (r) => {
    const c = await caseInScope(deps.db, r.params.id, scopeOf(r));
    await requireRole(deps, r, 'print_labels', c.hospital_id, c);
    const known = new Set((await labelsOf(deps.db, c, r.body.kind, 'code128')).map((l) => l.id));
    if (r.body.ids.some((id) => !known.has(id))) throw new AppError(422, 'lab.label_unknown');
    const now = new Date().toISOString();
    await deps.db.transaction().execute((trx) => addTimeline(trx, c.hospital_id, c.id, { action: r.body.reprint ? 'reprint_labels' : 'print_labels', actor: r.auth!, detail: { kind: r.body.kind, ids: r.body.ids } }, now));
    return ok({ printed: r.body.ids.length });
  });

  // Registration: the patient of an outpatient or admission number, from the HIS adapter (server/modules/his).
  app.get('/api/pathology/his/lookup', {
    config: { ...perm('case_register'), audit: false },
    schema: {
      tags,
      querystring: Type.Object({
        outpatient_number: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        admission_number: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      }), response: okResponse()
    },
  }, async (r) => {
    if (!deps.his) throw new AppError(404, 'lab.his_unavailable');
    if (!r.query.outpatient_number && !r.query.admission_number) throw new AppError(422, 'lab.his_number_required');
    const patient = await deps.his.lookup({ ...r.query, hospital_id: workingHospital(r) }).catch((e: unknown) => {
      if (e instanceof HisUnavailable) {
        r.log.warn({ err: e.message }, 'HIS lookup failed');
        throw new AppError(502, 'lab.his_failed');
      }
      throw e;
    });
    if (!patient) throw new AppError(404, 'lab.his_not_found');
    return ok(patient);
  });

  // CaseList export (.xlsx): a POST so the operation log records who exported which patients' data.
  app.post('/api/pathology/export', {
    config: perm('export_data_role'),
    schema: {
      tags,
      body: Type.Object({
        status: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_]+$' }), { minItems: 1, maxItems: 20 })),
        view: View,
      }, { additionalProperties: false }), response: binaryResponse(XLSX)
    },
  }, async (r, reply) => {
    const { hospitals, resolve } = await scopedRules(r);
    const { file } = await exportCases(deps.db, hospitals, resolve, r.lang, r.body.status ? { keys: r.body.status, view: r.body.view ?? 'status' } : undefined);
    return reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="cases-${new Date().toISOString().slice(0, 10)}.xlsx"`).send(file);
  });

  // CaseDistribution shows each first-diagnosis doctor's current workload before allocating; for one case
  // (`case_id`), only the doctors who work in its subspecialty directory, of its hospital.
  app.get('/api/pathology/doctors/workload', {
    config: { ...perm('case_allocation'), audit: false },
    schema: { tags, querystring: Type.Object({ case_id: Type.Optional(Type.Integer({ minimum: 1 })) }), response: okResponse() },
  }, async (r) => {
    if (r.query.case_id === undefined) return ok(await primaryWorkload(deps.db, workingHospital(r)));
    const c = await caseInScope(deps.db, r.query.case_id, scopeOf(r));
    const doctors = await primaryWorkload(deps.db, c.hospital_id);
    const covering = await doctorsCovering(deps.db, doctors.map((d) => d.id), c.subspecialty_id);
    return ok(doctors.filter((d) => covering.has(d.id)));
  });

  // SettingPathological: the hospital's numbering rules per library.
  app.get('/api/pathology/numbering-rules', { config: { ...perm('system_setting'), audit: false }, schema: { tags, response: okResponse() } },
    async (r) => ok(await rulesOf(deps.db, workingHospital(r))));
  app.put('/api/pathology/numbering-rules', { config: perm('system_setting'), schema: { tags, body: NumberingRuleBody, response: okResponse() } }, async (r) => {
    const problems = ruleProblems(r.body);
    if (Object.keys(problems).length) {
      throw new AppError(422, 'lab.numbering_rule_invalid', {}, Object.fromEntries(Object.entries(problems).map(([f, reason]) => [f, [{ key: 'error.field_invalid', params: { field: f, reason } }]])));
    }
    await saveRule(deps.db, workingHospital(r), r.body.library, r.body);
    return ok(await rulesOf(deps.db, workingHospital(r)));
  });
}
