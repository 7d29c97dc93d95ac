import { describe, expect, it } from 'vitest';
import { ruleResolver, type RuleSet } from './rules.js';
import { caseDisplay, caseMarkers, caseNumberColour, caseStages, caseStatusColour, caseStatusKey } from './rulesCaseStatus.js';
import caseStatus from '../../schemas/rules/case-status.json';
import { CASE_STATUS_CASES } from './caseStatus.fixtures.js';

/** Spec §4 "Case status display, in order", each branch in the spec's words, run on the shipped rule file. */
const resolve = ruleResolver([caseStatus as RuleSet], (m) => { throw new Error(m); });
const base = { main_phase: 'diagnosis', sub_phase: 'to_first', status: 'doing', archive_status: 'not_filed', print_deliver_status: 0, report_status: null, report: null };
const status = (row: Record<string, unknown>) => caseStatusKey({ ...base, ...row }, resolve);
const released = { release_status: 'yes', sub_phase: 'sign', is_draft: 0, report_type: 1 };

describe('case status display (spec §4, schemas/rules/case-status.json)', () => {
  it('1. archive_status = filed: Filed, whatever else the case says', () => {
    expect(status({ archive_status: 'filed', report: { ...released, deliver_at: '2026-01-01' }, print_deliver_status: 1 })).toBe('filed');
  });

  it('2. a latest report: released and delivered → Sent; released and printed → To send; released → To print', () => {
    expect(status({ report: { ...released, print_at: '2026-01-01', deliver_at: '2026-01-02' } })).toBe('sent');
    expect(status({ report: { ...released, print_at: '2026-01-01' } })).toBe('to_send');
    expect(status({ report: released })).toBe('to_print');
  });

  it('2. a latest report: is_draft set → Draft; otherwise its sub_phase, supplementary reports (report_type 2) with the prefix', () => {
    expect(status({ report: { release_status: 'no', is_draft: 1, sub_phase: 'audit' } })).toBe('draft');
    expect(status({ report: { release_status: 'no', is_draft: 0, sub_phase: 'audit', report_type: 1 } })).toBe('audit');
    expect(status({ report: { release_status: 'no', is_draft: 0, sub_phase: 'audit', report_type: 2 } })).toBe('supplementary_audit');
    // The report decides even when the case also has report_status and print_deliver_status.
    expect(status({ report: { release_status: 'no', sub_phase: 'sign' }, report_status: 'x', print_deliver_status: 3 })).toBe('sign');
  });

  it('3. no report but report_status: print_deliver_status 1 To print, 2 To send, 3 Sent; otherwise report_status', () => {
    expect(status({ report_status: 'signed', print_deliver_status: 1 })).toBe('to_print');
    expect(status({ report_status: 'signed', print_deliver_status: 2 })).toBe('to_send');
    expect(status({ report_status: 'signed', print_deliver_status: 3 })).toBe('sent');
    expect(status({ report_status: 'signed', print_deliver_status: 0 })).toBe('signed');
  });

  it('4. otherwise: print_deliver_status 1, 2, 3 as above; any other value gives sub_phase, status or main_phase', () => {
    expect(status({ print_deliver_status: 1 })).toBe('to_print');
    expect(status({ print_deliver_status: '2' })).toBe('to_send');
    expect(status({ print_deliver_status: 3 })).toBe('sent');
    expect(status({ print_deliver_status: 7 })).toBe('to_first');
    expect(status({ sub_phase: null })).toBe('doing');
    expect(status({ sub_phase: null, status: null })).toBe('diagnosis');
    expect(status({ sub_phase: '', status: '', main_phase: '' })).toBe('');
  });

  it.each(CASE_STATUS_CASES)('the shared spec cases (also run on the server): $spec', ({ row, status: key }) => {
    expect(caseStatusKey({ ...row, report: null }, resolve)).toBe(key);
  });

  it('marker icons: expedite, technical advice, special check, supplementary, stain report, IHC report (rejected supplements excluded)', () => {
    const markers = (row: Record<string, unknown>) => caseMarkers({ ...base, ...row }, resolve);
    expect(markers({})).toEqual([]);
    expect(markers({
      expedite_status: 1, has_technology_advice: 1, special_check: ['CK'], has_supplementary: 1,
      report_supplementary: [{ supplement_type: 2, special_audit_result: 'accept' }, { supplement_type: 1, special_audit_result: 'new' }],
    })).toEqual(['expedite', 'technical_advice', 'special_check', 'supplementary', 'stain_report', 'ihc_report']);
    expect(markers({ expedite_status: 'urgent', has_spec_advice: 1 })).toEqual(['expedite', 'special_check']);
    expect(markers({ special_check: [], report_supplementary: [{ supplement_type: 1, special_audit_result: 'reject' }, { supplement_type: 0 }] })).toEqual([]);
  });

  it('stage words (list-progress filters): done / not_done, finish, undo / doing, diagnosis stages, rollback, print and send, urgent', () => {
    const stages = (row: Record<string, unknown>) => caseStages({ ...base, ...row }, resolve);
    expect(stages({})).toEqual(['not_done', 'doing', 'to_first']);
    expect(stages({ main_phase: 'apply', sub_phase: null })).toEqual(['not_done', 'undo']);
    expect(stages({ archive_status: 'filed', sub_phase: null })).toEqual(['done', 'finish']);
    expect(stages({ sub_phase: 'rejected', expedite_status: 1 })).toEqual(['not_done', 'doing', 'rollback', 'urgent']);
    expect(stages({ sub_phase: 'to_audit', print_deliver_status: 1 })).toEqual(['not_done', 'doing', 'to_audit', 'to_print']);
    expect(stages({ sub_phase: null, print_deliver_status: 2 })).toEqual(['not_done', 'doing', 'printed', 'to_send']);
    expect(stages({ sub_phase: null, print_deliver_status: 3 })).toEqual(['done', 'printed', 'sent']);
  });

  it('number colour follows sub_phase, else main_phase; the status box is gold', () => {
    expect(caseNumberColour({ main_phase: 'slide_making', sub_phase: 'cut' }, resolve)).toBe('blue');
    expect(caseNumberColour({ main_phase: 'diagnosis', sub_phase: 'to_allot' }, resolve)).toBe('purple');
    expect(caseNumberColour({ main_phase: 'sample', sub_phase: null }, resolve)).toBe('marigold');
    expect(caseNumberColour({ main_phase: 'archive', sub_phase: 'something_new' }, resolve)).toBe('green');
    expect(caseNumberColour({ main_phase: 'unheard_of' }, resolve)).toBe('grey');
    expect(caseStatusColour(base, resolve)).toBe('gold');
  });

  it('a hospital override changes the display; a broken rule falls back to empty, grey and gold', () => {
    const override = ruleResolver([{ ...(caseStatus as RuleSet), rules: { ...caseStatus.rules, 'status-colour': { if: [{ var: 'expedite_status' }, 'red', 'gold'] } } }]);
    expect(caseStatusColour({ expedite_status: 1 }, override)).toBe('red');
    const broken = ruleResolver([{ ...(caseStatus as RuleSet), rules: { status: { nope: 1 } } }], () => undefined);
    expect(caseDisplay(base, broken, () => undefined)).toEqual({ status: '', markers: [], number_colour: 'grey', status_colour: 'gold' });
  });
});
