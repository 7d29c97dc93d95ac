import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { workingHospital } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { needsRescan, QC_GRADES, QC_JUDGES, QC_REASONS, qcGradingProblem, reasonsText } from '../../../src/core/slideQc.js';
import { gradeSlide, judgeSlide, qcRowOf } from './queries.js';
import { okResponse } from '../../http/responses.js';

const SlideId = Type.Object({ slideId: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 }) });
const GradeBody = Type.Object({
  grade: Type.Union(QC_GRADES.map((g) => Type.Literal(g))),
  reasons: Type.Optional(Type.Array(Type.Union(QC_REASONS.map((r) => Type.Literal(r))), { maxItems: QC_REASONS.length })),
  /** One reason, as the list page's prompt sends it; joined with `reasons`. */
  reason: Type.Optional(Type.Union(QC_REASONS.map((r) => Type.Literal(r)))),
  remark: Type.Optional(Type.String({ maxLength: 500 })),
  /** The QC row's version the user graded from; another's grading since then answers 409. */
  version: Type.Optional(Type.Integer({ minimum: 0 })),
});
const JudgeBody = Type.Object({ judge: Type.Union(QC_JUDGES.map((j) => Type.Literal(j))), version: Type.Optional(Type.Integer({ minimum: 0 })) });
const tags = ['resource:slide_qc'];

/**
 * SlideQCNew and SlideJudge (spec §9): grade a slide of the working hospital qualified / basically qualified /
 * unqualified with its reasons, or evaluate it A–D. Optimistic: the version read must still be the row's. An
 * unqualified slide goes back to rescan: its newest scan is flagged, and its scanner sees it in its heartbeat answer.
 */
export function qcRoutes(app: TypedApp, db: Db): void {
  const qcRow = async (slideId: number, hospitalId: number) => {
    const row = await qcRowOf(db, slideId, hospitalId);
    if (!row) throw new AppError(404, 'slide.not_found');
    return row;
  };

  app.post('/api/slide/qc/grade/:slideId', {
    config: { access: { permission: 'qc_manage' } },
    schema: { tags, params: SlideId, body: GradeBody, response: okResponse() },
  }, async (request) => {
    const { grade, remark, version } = request.body;
    const reasons = [...(request.body.reasons ?? []), ...(request.body.reason ? [request.body.reason] : [])];
    const problem = qcGradingProblem(grade, reasons);
    if (problem) throw new AppError(422, problem);
    const row = await qcRow(request.params.slideId, workingHospital(request));
    if (version !== undefined && version !== row.version) throw new AppError(409, 'qc.changed');
    const at = new Date().toISOString();
    const graded = await gradeSlide(db, {
      row, grade, reasons: reasonsText(reasons), remark: remark ?? row.remark, by: request.auth!.id, at, rescan: needsRescan(grade),
    });
    if (graded === 'changed') throw new AppError(409, 'qc.changed');
    return ok({ slide_id: row.slide_id, grade, reasons: reasonsText(reasons), version: row.version + 1, rescan_scan_id: graded.rescan });
  });

  app.post('/api/slide/qc/judge/:slideId', {
    config: { access: { permission: 'qc_manage' } },
    schema: { tags, params: SlideId, body: JudgeBody, response: okResponse() },
  }, async (request) => {
    const row = await qcRow(request.params.slideId, workingHospital(request));
    const { judge, version } = request.body;
    if (version !== undefined && version !== row.version) throw new AppError(409, 'qc.changed');
    const at = new Date().toISOString();
    if (!(await judgeSlide(db, row, judge, at))) throw new AppError(409, 'qc.changed');
    return ok({ slide_id: row.slide_id, judge, version: row.version + 1 });
  });
}
