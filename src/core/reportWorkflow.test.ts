import { describe, expect, it } from 'vitest';
import { ruleResolver, type RuleSet } from './rules.js';
import workflow from '../../schemas/rules/workflow.json';
import caseStatus from '../../schemas/rules/case-status.json';
import {
  actionAllowed, afterFirst, canRecall, caseFieldsFor, hesitationMinutes, isReleased, mayRunReportAction, reportSnapshot, workflowLevels, type ReportState,
} from './reportWorkflow.js';
import { caseStatusKey } from './rulesCaseStatus.js';

const resolve = ruleResolver([workflow as RuleSet, caseStatus as RuleSet], (m) => { throw new Error(m); });
const main = (r: Partial<ReportState>): ReportState => ({ report_type: 1, sub_phase: 'to_first', is_draft: 0, release_status: 'no', ...r });
const now = new Date('2026-05-01T08:00:00Z');

describe('report workflow (issue 15, schemas/rules/workflow.json)', () => {
  it('each step starts only where the workflow is', () => {
    expect(actionAllowed('submit', main({}))).toBe(true);
    expect(actionAllowed('approve', main({}))).toBe(false);
    expect(actionAllowed('approve', main({ sub_phase: 'to_audit' }))).toBe(true);
    expect(actionAllowed('return', main({ sub_phase: 'to_sign' }))).toBe(true);
    expect(actionAllowed('sign', main({ sub_phase: 'to_audit' }))).toBe(false);
    expect(actionAllowed('print', main({ sub_phase: 'to_sign' }))).toBe(false);
    expect(actionAllowed('print', main({ sub_phase: 'signed', release_status: 'yes' }))).toBe(true);
    expect(actionAllowed('accept', main({ report_type: 2, sub_phase: 'draft' }))).toBe(false);
    expect(actionAllowed('accept', main({ report_type: 2, sub_phase: 'new' }))).toBe(true);
    // A supplementary report is sent once accepted (it follows the report it supplements to the clinical side), not before.
    expect(actionAllowed('send', main({ report_type: 2, sub_phase: 'accept' }))).toBe(true);
    expect(actionAllowed('send', main({ report_type: 2, sub_phase: 'new' }))).toBe(false);
    expect(actionAllowed('send', main({ report_type: 2, sub_phase: 'reject' }))).toBe(false);
  });

  it('three levels by default; a hospital may skip audit, never first or sign', () => {
    expect(workflowLevels(resolve)).toEqual(['first', 'audit', 'sign']);
    expect(afterFirst(workflowLevels(resolve))).toBe('to_audit');
    const noAudit = ruleResolver([{ ...workflow, rules: { ...workflow.rules, levels: ['first', 'sign'] } } as RuleSet]);
    expect(afterFirst(workflowLevels(noAudit))).toBe('to_sign');
    const broken = ruleResolver([{ ...workflow, rules: { ...workflow.rules, levels: ['audit'] } } as RuleSet]);
    expect(workflowLevels(broken)).toEqual(['first', 'audit', 'sign']);
    expect(hesitationMinutes(resolve)).toBe(180);
  });

  it('roles: primary writes, follow-up doctor audits, auditing doctor signs (spec §6)', () => {
    expect(mayRunReportAction('submit', ['primary_doctor'], {}, resolve)).toBe(true);
    expect(mayRunReportAction('approve', ['primary_doctor'], {}, resolve)).toBe(false);
    expect(mayRunReportAction('approve', ['follow_up_doctor'], {}, resolve)).toBe(true);
    expect(mayRunReportAction('sign', ['follow_up_doctor'], {}, resolve)).toBe(false);
    expect(mayRunReportAction('sign', ['auditing_doctor'], {}, resolve)).toBe(true);
    expect(mayRunReportAction('sign', ['registrar'], {}, resolve)).toBe(false);
  });

  it('a held issue can be recalled until its time, not after', () => {
    const held = main({ sub_phase: 'to_issue', issue_at: '2026-05-01T10:59:59Z' });
    expect(canRecall(held, now)).toBe(true);
    expect(isReleased(held, now)).toBe(false);
    expect(canRecall(held, new Date('2026-05-01T11:00:00Z'))).toBe(false);
    expect(isReleased(held, new Date('2026-05-01T11:00:00Z'))).toBe(true);
  });

  it('the case shows each step of its report (spec §4 through the shipped case-status rules)', () => {
    const shown = (r: ReportState) => caseStatusKey({ main_phase: 'diagnosis', ...caseFieldsFor(r), report: reportSnapshot({ id: 1, ...r }) }, resolve);
    expect(shown(main({ is_draft: 1 }))).toBe('draft');
    expect(shown(main({ sub_phase: 'to_audit' }))).toBe('to_audit');
    expect(shown(main({ sub_phase: 'to_sign' }))).toBe('to_sign');
    expect(shown(main({ sub_phase: 'signed', release_status: 'yes' }))).toBe('to_print');
    expect(shown(main({ sub_phase: 'signed', release_status: 'yes', print_at: 'x' }))).toBe('to_send');
    expect(shown(main({ sub_phase: 'signed', release_status: 'yes', print_at: 'x', deliver_at: 'y' }))).toBe('sent');
    expect(shown(main({ report_type: 2, sub_phase: 'new' }))).toBe('supplementary_new');
    expect(caseFieldsFor(main({ sub_phase: 'signed', release_status: 'yes', print_at: 'x' })).print_deliver_status).toBe(2);
  });
});
