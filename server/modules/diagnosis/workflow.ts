import type { Kysely, Updateable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ReportTable } from '../../db/schema/reports.js';
import { AppError } from '../../http/errors.js';
import {
  actionAllowed, afterFirst, canRecall, hesitationMinutes, isReleased, mayRunReportAction, workflowLevels, type ReportAction,
} from '../../../src/core/reportWorkflow.js';
import { notify } from '../messages/notify.js';
import { addTimeline, caseInScope, openOrdersOf } from '../cases/lifecycle-queries.js';
import { scopeOf, type DiagnosisDeps, type Req } from './deps.js';
import { insertDocument, supersedeDocuments } from './document-queries.js';
import { reportBundle } from './fhir-bundle.js';
import { DeliveryFailed } from './outbound.js';
import { bundleFacts } from './outbound-queries.js';
import { freezeSigning } from './freeze.js';
import { reportInScope, reportsOfCase, syncCase, writeReport, type ReportRow } from './queries.js';
import { signingStamp, TEXT_FIELDS } from './seal.js';
import { mergePdfs } from './merge-pdfs.js';
import { served } from './served.js';

export type ReportText = Partial<Record<(typeof TEXT_FIELDS)[number], string>> & { images?: number[] };

/** The role check of schemas/rules/workflow.json for the report's hospital (403 naming the step). */
async function requireRole(deps: DiagnosisDeps, r: Req, action: ReportAction, caseRow: unknown, report: unknown, hospitalId: number) {
  if (!mayRunReportAction(action, r.auth!.identification, { case: caseRow, report }, await deps.rulesFor(hospitalId))) {
    throw new AppError(403, 'diagnosis.role_refused', { action });
  }
}

/** Report images must be this case's pictures (case_images; a DICOM attachment is no picture for the PDF); stored as their ids, in the order chosen. */
async function checkImages(deps: DiagnosisDeps, caseId: number, images: number[] | undefined) {
  if (!images?.length) return;
  const known = new Set((await deps.db.selectFrom('case_images').select('id').where('case_id', '=', caseId).where('modality', 'is', null).execute()).map((i) => i.id));
  if (images.some((i) => !known.has(i))) throw new AppError(422, 'diagnosis.images_unknown');
}

const textPatch = (body: ReportText): Updateable<ReportTable> => ({
  ...Object.fromEntries(TEXT_FIELDS.filter((f) => body[f] !== undefined).map((f) => [f, body[f]])),
  ...(body.images ? { images: JSON.stringify([...new Set(body.images)]) } : {}),
});

/**
 * Runs one report step in a transaction with its timeline entry on the case; `within` adds writes that stand or fall
 * with the step (a signing's document), run only once the report write passed its version check.
 */
async function step(
  deps: DiagnosisDeps, r: Req, current: ReportRow, action: string, patch: Updateable<ReportTable>, detail?: unknown,
  within?: (trx: Kysely<Database>, row: ReportRow, now: string) => Promise<unknown>,
): Promise<ReportRow> {
  const now = new Date().toISOString();
  return deps.db.transaction().execute(async (trx) => {
    // The case's phase before and after the step: the timeline shows the move, or none.
    const phase = () => trx.selectFrom('cases').select(['main_phase', 'sub_phase']).where('id', '=', current.case_id).executeTakeFirstOrThrow();
    const from = await phase();
    const row = await writeReport(trx, current, patch, now);
    if (within) await within(trx, row, now);
    const to = await phase();
    await addTimeline(trx, row.hospital_id, row.case_id, { action: `report_${action}`, actor: r.auth!, from, to, detail: { report_id: row.id, ...(detail as object) } }, now);
    return row;
  });
}

/**
 * A new report for a case: the case's own report once the case awaits first diagnosis (one per case), or a
 * supplementary one (report_type 2; supplement_type 1 IHC, 2 special stain, 0 plain) once that report is issued.
 */
export async function createReport(deps: DiagnosisDeps, r: Req, caseId: number, body: { report_type: 1 | 2; supplement_type?: 0 | 1 | 2 } & ReportText): Promise<ReportRow> {
  await releaseDue(deps);
  const c = await caseInScope(deps.db, caseId, scopeOf(r));
  const reports = await reportsOfCase(deps.db, caseId);
  const main = reports.find((x) => x.report_type === 1);
  await requireRole(deps, r, body.report_type === 1 ? 'save' : 'supplement_submit', c, null, c.hospital_id);
  if (body.report_type === 1) {
    if (main) throw new AppError(409, 'diagnosis.report_exists');
    if (c.main_phase !== 'diagnosis' || c.sub_phase !== 'to_first') throw new AppError(409, 'diagnosis.case_not_ready');
  } else if (!main || main.release_status !== 'yes') {
    throw new AppError(409, 'diagnosis.no_released_report');
  }
  await checkImages(deps, caseId, body.images);
  const now = new Date().toISOString();
  return deps.db.transaction().execute(async (trx) => {
    const { id } = await trx.insertInto('reports').values({
      hospital_id: c.hospital_id, case_id: c.id, report_type: body.report_type, supplement_type: body.report_type === 2 ? body.supplement_type ?? 0 : null,
      sub_phase: body.report_type === 1 ? 'to_first' : 'draft', is_draft: body.report_type === 1 ? 1 : 0, release_status: 'no',
      first_doctor: r.auth!.id, created_by: r.auth!.id, evaluation: 'unassessed', created_at: now, updated_at: now,
      ...textPatch(body),
    }).returning('id').executeTakeFirstOrThrow();
    const row = await trx.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    await syncCase(trx, row, now);
    await addTimeline(trx, c.hospital_id, c.id, { action: body.report_type === 1 ? 'report_create' : 'report_supplement_create', actor: r.auth!, detail: { report_id: id, supplement_type: row.supplement_type } }, now);
    return row;
  });
}

/** Save (draft or autosave): the text as typed, refused with 409 when another doctor saved in between. */
export async function saveReport(deps: DiagnosisDeps, r: Req, id: number, body: ReportText & { version: number }): Promise<ReportRow> {
  const current = await loaded(deps, r, id, 'save', body.version);
  await checkImages(deps, current.case_id, body.images);
  return step(deps, r, current, 'save', textPatch(body));
}

/** The report as the caller may act on it: in scope, the version the caller saw, the role and the state right. */
async function loaded(deps: DiagnosisDeps, r: Req, id: number, action: ReportAction, version: number): Promise<ReportRow> {
  await releaseDue(deps);
  const current = await reportInScope(deps.db, id, scopeOf(r));
  const c = await caseInScope(deps.db, current.case_id, scopeOf(r));
  await requireRole(deps, r, action, c, current, current.hospital_id);
  // Issued meanwhile (its hesitation period ran out): say so, not merely that the report changed.
  if (action === 'recall' && current.release_status === 'yes') throw new AppError(409, 'diagnosis.recall_too_late');
  if (current.version !== version) throw new AppError(409, 'diagnosis.changed', { version: current.version });
  if (!actionAllowed(action, current)) throw new AppError(409, 'diagnosis.wrong_step', { phase: current.sub_phase });
  return current;
}

export interface ActionBody { version: number; reason?: string; issue?: 'now' | 'later' }

/** One workflow step (first → audit → sign, recall, print, send; supplementary: submit, accept, reject). */
export async function runAction(deps: DiagnosisDeps, r: Req, id: number, action: Exclude<ReportAction, 'save'>, body: ActionBody): Promise<ReportRow> {
  const current = await loaded(deps, r, id, action, body.version);
  const now = new Date();
  const iso = now.toISOString();
  const resolve = await deps.rulesFor(current.hospital_id);
  switch (action) {
    case 'submit': {
      if (!current.diagnosis?.trim()) throw new AppError(422, 'diagnosis.diagnosis_required');
      if ((await openOrdersOf(deps.db, current.case_id)).length) throw new AppError(409, 'diagnosis.open_orders');
      return step(deps, r, current, action, { sub_phase: afterFirst(workflowLevels(resolve)), is_draft: 0, first_doctor: r.auth!.id, first_at: iso, return_reason: null });
    }
    case 'return': {
      const reason = body.reason?.trim();
      if (!reason) throw new AppError(422, 'diagnosis.reason_required');
      const row = await step(deps, r, current, action, { sub_phase: 'to_first', is_draft: 0, return_reason: reason, returned_count: current.returned_count + 1, audit_doctor: r.auth!.id, audit_at: iso }, { reason });
      await tellReturned(deps, r, current, reason);
      return row;
    }
    case 'approve':
      return step(deps, r, current, action, { sub_phase: 'to_sign', audit_doctor: r.auth!.id, audit_at: iso });
    case 'sign': {
      const stamp = await signingStamp(deps.verifyKeys, current, iso, r.auth!.id);
      const later = body.issue === 'later';
      const issueAt = later ? new Date(now.getTime() + hesitationMinutes(resolve) * 60_000).toISOString() : iso;
      const patch = later ? { ...stamp, sub_phase: 'to_issue', issue_at: issueAt } : { ...stamp, sub_phase: 'signed', release_status: 'yes', issue_at: iso };
      // Rendered before the transaction, stored within it: a report changed meanwhile refuses the signing (409).
      const frozen = await freezeSigning(deps, { ...current, ...patch }, 'signed');
      return step(deps, r, current, action, patch, later ? { issue_at: issueAt } : undefined, (trx, row, at) => insertDocument(trx, frozen, row, at));
    }
    case 'recall':
      if (!canRecall(current, now)) throw new AppError(409, 'diagnosis.recall_too_late');
      // The recalled signing's document stays, superseded; signing again makes a new one.
      return step(deps, r, current, action, { sub_phase: 'to_sign', issue_at: null, sign_at: null, sign_doctor: null, verify_code: null, verify_hash: null }, undefined,
        (trx, _row, at) => supersedeDocuments(trx, current.id, at));
    case 'print':
      return step(deps, r, current, action, { print_at: current.print_at ?? iso });
    case 'send': {
      // What goes out is what was signed (its stored PDF, issuing language), as one FHIR transaction Bundle. It is
      // delivered (outbox) or queued (fhir; hl7 as an ORU^R01 built from the same facts) within the send's transaction: a failed delivery is not recorded as sent,
      // and a recorded send always has its queued delivery. With REPORT_OUTBOUND=none the send is only recorded.
      if (deps.outbound.name === 'none') return step(deps, r, current, action, { deliver_at: current.deliver_at ?? iso });
      const out = await served(deps, current);
      const facts = {
        ...await bundleFacts(deps.db, current), doc: out.doc, pdf: await out.pdf(), documentId: out.document?.id ?? null,
        base: deps.output.publicUrl, systemBase: deps.output.fhirSystemBase, sentAt: iso,
      };
      const bundle = reportBundle(facts);
      const meta = { reportId: current.id, hospitalId: current.hospital_id, userId: r.auth!.id, username: r.auth!.name };
      const row = await step(deps, r, current, action, { deliver_at: current.deliver_at ?? iso }, { outbound: deps.outbound.name },
        (trx) => deps.outbound.deliver(trx, bundle, meta, facts).catch((err: unknown) => {
          if (!(err instanceof DeliveryFailed)) throw err;
          r.log.error({ err, report: current.id, outbound: deps.outbound.name }, 'report delivery failed');
          throw new AppError(502, 'diagnosis.send_failed');
        }));
      deps.outbound.committed?.(deps.db);
      return row;
    }
    case 'supplement_submit':
      if (!current.diagnosis?.trim()) throw new AppError(422, 'diagnosis.diagnosis_required');
      return step(deps, r, current, action, { sub_phase: 'new', first_at: iso });
    case 'accept': {
      // Accepting signs the supplementary report: stamped, sealed and frozen like a signing, naming what it supplements.
      const patch = { ...await signingStamp(deps.verifyKeys, current, iso, r.auth!.id), sub_phase: 'accept', audit_doctor: r.auth!.id, audit_at: iso };
      const frozen = await freezeSigning(deps, { ...current, ...patch }, 'supplementary');
      return step(deps, r, current, action, patch, undefined, (trx, row, at) => insertDocument(trx, frozen, row, at));
    }
    case 'reject':
      return step(deps, r, current, action, { sub_phase: action, audit_doctor: r.auth!.id, audit_at: iso });
  }
}

/** The doctor who submitted a returned report is told which case came back, by whom and why. */
async function tellReturned(deps: DiagnosisDeps, r: Req, report: ReportRow, reason: string): Promise<void> {
  if (report.first_doctor === null) return;
  const c = await deps.db.selectFrom('cases').select('pathology_number').where('id', '=', report.case_id).executeTakeFirstOrThrow();
  await notify(deps.db, report.hospital_id, [report.first_doctor], 'report_returned', {
    number: c.pathology_number ?? '', by: r.auth!.realname ?? r.auth!.name, reason,
  }, `/diagnosis/${report.case_id}`, report.case_id);
}

/**
 * Issues the reports whose hesitation period is over. Run by a scheduled job (release-job.ts), so a held report is
 * issued on time with no request arriving, and before every diagnosis read and step, so a recall after its time
 * finds it issued. Each is its own conditional update: two processes issuing at once do it once.
 */
export async function releaseDue(deps: Pick<DiagnosisDeps, 'systemDb'>, now = new Date()): Promise<number> {
  // System work, whoever's request runs it: every hospital's due reports, not only the caller's (the unscoped handle).
  const due = await deps.systemDb.selectFrom('reports').selectAll().where('sub_phase', '=', 'to_issue').where('issue_at', '<=', now.toISOString()).execute();
  let n = 0;
  for (const report of due.filter((d) => isReleased(d, now))) {
    try {
      await deps.systemDb.transaction().execute(async (trx) => {
        await writeReport(trx, report, { sub_phase: 'signed', release_status: 'yes' }, now.toISOString());
      });
      n++;
    } catch (e) {
      if (!(e instanceof AppError && e.status === 409)) throw e;
    }
  }
  return n;
}

/**
 * Batch print (issue 33): the signed reports' PDFs as one document in the order asked, each then recorded as printed
 * (its timeline line), as one print step each would. `ids` are reports; `caseIds` are cases, each giving its released
 * reports (the report, then its supplements). Every report is checked before anything is written: one outside the
 * reader's scope is a 404, one the reader's role may not print a 403, one not signed (or a case with none) a 409
 * naming its case, and then none is marked printed.
 */
export async function printBatch(deps: DiagnosisDeps, r: Req, ask: { ids: number[] } | { case_ids: number[] }): Promise<Buffer> {
  await releaseDue(deps);
  const asked: ReportRow[] = [];
  if ('ids' in ask) {
    for (const id of ask.ids) asked.push(await reportInScope(deps.db, id, scopeOf(r)));
  } else {
    for (const caseId of ask.case_ids) {
      const c = await caseInScope(deps.db, caseId, scopeOf(r));
      const released = (await reportsOfCase(deps.db, caseId)).filter((x) => actionAllowed('print', x));
      if (!released.length) throw new AppError(409, 'diagnosis.print_not_signed', { number: c.pathology_number });
      asked.push(...released);
    }
  }
  if (asked.length > 100) throw new AppError(422, 'diagnosis.print_too_many', { max: 100 });
  for (const current of asked) {
    const c = await caseInScope(deps.db, current.case_id, scopeOf(r));
    await requireRole(deps, r, 'print', c, current, current.hospital_id);
    if (!actionAllowed('print', current)) throw new AppError(409, 'diagnosis.print_not_signed', { number: c.pathology_number });
  }
  const pdfs: Buffer[] = [];
  for (const report of asked) pdfs.push(await (await served(deps, report, r.lang)).pdf());
  const merged = await mergePdfs(pdfs);
  const iso = new Date().toISOString();
  for (const current of asked) await step(deps, r, current, 'print', { print_at: current.print_at ?? iso });
  return merged;
}

/** Delayed report (spec §4, §5): filed with a reason, approved by an auditor; not filed again while one awaits approval. */
export async function delayReport(deps: DiagnosisDeps, r: Req, id: number, body: { version: number; reason?: string; approve?: boolean }): Promise<ReportRow> {
  await releaseDue(deps);
  const current = await reportInScope(deps.db, id, scopeOf(r));
  const c = await caseInScope(deps.db, current.case_id, scopeOf(r));
  await requireRole(deps, r, body.approve ? 'approve' : 'save', c, current, current.hospital_id);
  if (current.version !== body.version) throw new AppError(409, 'diagnosis.changed', { version: current.version });
  const iso = new Date().toISOString();
  if (body.approve) {
    if (current.delay_status !== 'pending') throw new AppError(409, 'diagnosis.no_delay_pending');
    return step(deps, r, current, 'delay_approve', { delay_status: 'approved' });
  }
  if (current.delay_status === 'pending') throw new AppError(409, 'diagnosis.delay_pending');
  if (!body.reason?.trim()) throw new AppError(422, 'diagnosis.reason_required');
  return step(deps, r, current, 'delay', { delayed: 1, delay_status: 'pending', delay_reason: body.reason.trim(), delay_at: iso, delay_doctor: r.auth!.id }, { reason: body.reason.trim() });
}

/** Follow-up and evaluation (spec §4: following / ended; unassessed / qualified / unqualified). */
export async function setFlags(deps: DiagnosisDeps, r: Req, id: number, body: { version: number; follow_up?: 'following' | 'ended' | null; evaluation?: 'unassessed' | 'qualified' | 'unqualified' }): Promise<ReportRow> {
  const current = await reportInScope(deps.db, id, scopeOf(r));
  const c = await caseInScope(deps.db, current.case_id, scopeOf(r));
  await requireRole(deps, r, body.evaluation !== undefined ? 'approve' : 'save', c, current, current.hospital_id);
  if (current.version !== body.version) throw new AppError(409, 'diagnosis.changed', { version: current.version });
  return step(deps, r, current, 'flags', {
    ...(body.follow_up !== undefined ? { follow_up: body.follow_up } : {}), ...(body.evaluation !== undefined ? { evaluation: body.evaluation } : {}),
  }, body);
}
