import { workflowLevels, hesitationMinutes } from '../../../src/core/reportWorkflow.js';
import { blocksOf, caseInScope, ordersOf, sectionsOfBlocks, specimensOf } from '../cases/lifecycle-queries.js';
import { withDisplay } from '../cases/status.js';
import { scopeOf, type DiagnosisDeps, type Req } from './deps.js';
import { reportsOfCase, userNames, type ReportRow } from './queries.js';
import { releaseDue } from './workflow.js';

/** A report as the browser gets it: images as ids, the doctors' names beside their ids; the seal stays on the server. */
export const reportOut = (r: ReportRow, names: Record<number, string> = {}) => {
  const { verify_hash: _hash, ...rest } = r;
  return {
    ...rest,
    images: r.images ? (JSON.parse(r.images) as number[]) : [],
    first_doctor_name: r.first_doctor ? names[r.first_doctor] ?? null : null,
    audit_doctor_name: r.audit_doctor ? names[r.audit_doctor] ?? null : null,
    sign_doctor_name: r.sign_doctor ? names[r.sign_doctor] ?? null : null,
  };
};

/** Everything the diagnosis editor shows of a case: summary, specimens, blocks, slides, orders, images, reports, workflow. */
export async function editorData(deps: DiagnosisDeps, r: Req, caseId: number) {
  await releaseDue(deps);
  const c = await caseInScope(deps.db, caseId, scopeOf(r));
  const resolve = await deps.rulesFor(c.hospital_id);
  const [specimens, blocks, sections, orders, reports, slides, images] = await Promise.all([
    specimensOf(deps.db, c.id), blocksOf(deps.db, c.id), sectionsOfBlocks(deps.db, c.id), ordersOf(deps.db, c.id), reportsOfCase(deps.db, c.id),
    deps.db.selectFrom('slides').select(['id', 'name', 'status']).where('case_id', '=', c.id).orderBy('id').execute(),
    deps.db.selectFrom('case_images').select(['id', 'title', 'slide_id', 'created_at']).where('case_id', '=', c.id).where('modality', 'is', null).orderBy('id').execute(),
  ]);
  const names = await userNames(deps.db, reports.flatMap((x) => [x.first_doctor, x.audit_doctor, x.sign_doctor]));
  return {
    case: withDisplay(c, resolve), specimens, blocks, sections, orders, slides, images,
    report: (() => { const m = [...reports].reverse().find((x) => x.report_type === 1); return m ? reportOut(m, names) : null; })(),
    supplementary: reports.filter((x) => x.report_type === 2).map((x) => reportOut(x, names)),
    workflow: { levels: workflowLevels(resolve), hesitation_minutes: hesitationMinutes(resolve) },
  };
}
