import { evaluateNamed, type RuleResolver } from './rules.js';

/**
 * The diagnosis and report workflow (issue 15, spec §3, §4, §7): which step a report may take from where it is,
 * where the step leads, and what the case shows of its latest report. Pure data and checks shared by the server
 * (which enforces them) and the diagnosis editor (which shows only the buttons the server would accept).
 * Which ROLE may run a step and whether a hospital audits at all are data: schemas/rules/workflow.json.
 */

export const REPORT_ACTIONS = ['save', 'submit', 'return', 'approve', 'sign', 'recall', 'print', 'send', 'supplement_submit', 'accept', 'reject'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

/** The workflow rule that decides who may run each action. */
export const ACTION_RULE: Record<ReportAction, string> = {
  save: 'first', submit: 'first', return: 'audit', approve: 'audit', sign: 'sign', recall: 'sign',
  print: 'print', send: 'send', supplement_submit: 'supplement', accept: 'accept', reject: 'accept',
};

export type Level = 'first' | 'audit' | 'sign';
export const SUPPLEMENT_TYPES = [0, 1, 2] as const;
export const EVALUATIONS = ['unassessed', 'qualified', 'unqualified'] as const;
export const FOLLOW_UP = ['following', 'ended'] as const;

export interface ReportState {
  report_type: number;
  sub_phase: string;
  is_draft: number;
  release_status: string;
  issue_at?: string | null;
  print_at?: string | null;
  deliver_at?: string | null;
}

/**
 * Where each action may start: the report's sub_phase (and for print/send, a released report). An accepted
 * supplementary report is sent too (issue 30): it corrects or adds to a report the clinical side may already hold,
 * so it must be able to follow it there.
 */
const FROM: Record<ReportAction, (r: ReportState) => boolean> = {
  save: (r) => r.report_type === 1 ? r.sub_phase === 'to_first' : r.sub_phase === 'draft',
  submit: (r) => r.report_type === 1 && r.sub_phase === 'to_first',
  return: (r) => r.report_type === 1 && (r.sub_phase === 'to_audit' || r.sub_phase === 'to_sign'),
  approve: (r) => r.report_type === 1 && r.sub_phase === 'to_audit',
  sign: (r) => r.report_type === 1 && r.sub_phase === 'to_sign',
  recall: (r) => r.report_type === 1 && r.sub_phase === 'to_issue' && r.release_status !== 'yes',
  print: (r) => r.release_status === 'yes',
  send: (r) => r.release_status === 'yes' || (r.report_type === 2 && r.sub_phase === 'accept'),
  supplement_submit: (r) => r.report_type === 2 && r.sub_phase === 'draft',
  accept: (r) => r.report_type === 2 && r.sub_phase === 'new',
  reject: (r) => r.report_type === 2 && r.sub_phase === 'new',
};

export const actionAllowed = (action: ReportAction, r: ReportState): boolean => FROM[action](r);

/** The hospital's sign-off levels (spec §7 config/workflow); a broken rule keeps all three (stricter, not looser). */
export function workflowLevels(resolve: RuleResolver): Level[] {
  const v = evaluateNamed('workflow.levels', {}, { resolve, fallback: null });
  const levels = Array.isArray(v) ? v.filter((l): l is Level => l === 'first' || l === 'audit' || l === 'sign') : [];
  return levels.includes('first') && levels.includes('sign') ? levels : ['first', 'audit', 'sign'];
}

/** Minutes a "three hours later" issue waits, during which it can be recalled (spec §4, §9: three hours). */
export function hesitationMinutes(resolve: RuleResolver): number {
  const v = evaluateNamed('workflow.hesitation-minutes', {}, { resolve, fallback: 180 });
  return typeof v === 'number' && v >= 0 && v <= 7 * 24 * 60 ? v : 180;
}

/** Whether actors with these roles may run `action` (a missing or failing rule refuses). */
export function mayRunReportAction(action: ReportAction, roles: string[], data: { case?: unknown; report?: unknown }, resolve: RuleResolver): boolean {
  return evaluateNamed(`workflow.${ACTION_RULE[action]}`, { roles, ...data }, { resolve, fallback: false }) === true;
}

/** Where a report submitted by the first doctor goes: to audit, or straight to signing where the hospital skips audit. */
export const afterFirst = (levels: Level[]) => (levels.includes('audit') ? 'to_audit' : 'to_sign');

/** Released now, or held until `issue_at` (the hesitation period, during which it can be recalled). */
export function isReleased(r: ReportState, now: Date): boolean {
  return r.release_status === 'yes' || (r.sub_phase === 'to_issue' && !!r.issue_at && Date.parse(r.issue_at) <= now.getTime());
}

/** A held issue can be recalled while its hesitation period lasts, never once it is due. */
export const canRecall = (r: ReportState, now: Date) => actionAllowed('recall', r) && !isReleased(r, now);

/** The latest report's fields the spec §4 case status reads (stored on the case as `latest_report`). */
export const reportSnapshot = (r: ReportState & { id: number; supplement_type?: number | null }) => ({
  id: r.id, report_type: r.report_type, supplement_type: r.supplement_type ?? null, sub_phase: r.sub_phase,
  is_draft: r.is_draft, release_status: r.release_status, print_at: r.print_at ?? null, deliver_at: r.deliver_at ?? null,
});

/**
 * The case's own spec §3 fields that follow its (main, not supplementary) report: sub_phase for the diagnosis
 * stage words, print_deliver_status 1 to print, 2 to send, 3 sent once released.
 */
export function caseFieldsFor(r: ReportState) {
  const released = r.release_status === 'yes';
  return {
    sub_phase: released ? 'signed' : r.is_draft && r.sub_phase === 'to_first' ? 'to_first' : r.sub_phase,
    is_draft: r.is_draft,
    release_status: r.release_status,
    report_status: released ? 'signed' : r.sub_phase,
    print_deliver_status: !released ? 0 : r.deliver_at ? 3 : r.print_at ? 2 : 1,
    print_at: r.print_at ?? null,
    deliver_at: r.deliver_at ?? null,
  };
}
