import { describe, expect, it } from 'vitest';
import { evaluateNamed, ruleResolver, type RuleSet } from './rules';
import { casesToIf, ifCases, isWordList, ruleInput, ruleTestData } from './ruleTestData';
import caseStatus from '../../schemas/rules/case-status.json';
import transitions from '../../schemas/rules/case-transitions.json';

describe('the rule test panel\'s data', () => {
  const row = { id: 7, pathology_number: 'P1', archive_status: 'unfiled', main_phase: 'diagnosis', sub_phase: 'first', latest_report: '{"release_status":"yes","print_at":"2026-01-01"}', special_check: '["ihc"]' };
  it('hands each set what the server hands it', () => {
    expect(ruleInput('case-status')).toBe('case');
    expect(ruleInput('case-transitions')).toBe('roles-case');
    expect(ruleInput('search-operators')).toBe('widget-field');
    const data = ruleTestData('case-status', { record: row });
    expect(data.report).toEqual({ release_status: 'yes', print_at: '2026-01-01' });
    expect(data.special_check).toEqual(['ihc']);
    expect(ruleTestData('case-transitions', { record: row, roles: ['registrar'] })).toEqual({ roles: ['registrar'], case: row });
    expect(ruleTestData('workflow', { record: row, roles: [] }).report).toEqual({ release_status: 'yes', print_at: '2026-01-01' });
    expect(ruleTestData('search-operators', { widget: 'select', field: 'case_type' })).toEqual({ widget: 'select', field: 'case_type' });
    expect(ruleTestData('forms', {})).toEqual({ $creating: true });
  });
  it('evaluated by the shared evaluator, a real case answers as on the server', () => {
    const resolve = ruleResolver([caseStatus as RuleSet, transitions as RuleSet]);
    expect(evaluateNamed('case-status.status', ruleTestData('case-status', { record: row }), { resolve, fallback: '' })).toBe('to_send');
    expect(evaluateNamed('case-transitions.register', ruleTestData('case-transitions', { record: row, roles: ['registrar'] }), { resolve, fallback: false })).toBe(true);
    expect(evaluateNamed('case-transitions.register', ruleTestData('case-transitions', { record: row, roles: ['technician'] }), { resolve, fallback: false })).toBe(false);
  });
  it('reads an if chain as cases and writes it back', () => {
    const logic = (caseStatus as RuleSet).rules['print-deliver'];
    const cases = ifCases(logic)!;
    expect(cases.cases).toHaveLength(3);
    expect(cases.otherwise).toBe('');
    expect(casesToIf(cases)).toEqual(logic);
    expect(ifCases({ if: [true, 'a'] })).toEqual({ cases: [{ when: true, then: 'a' }], otherwise: null });
    expect(ifCases({ or: [] })).toBeNull();
    expect(casesToIf({ cases: [], otherwise: 'x' })).toBe('x');
    expect(isWordList(['=', 'in'])).toBe(true);
    expect(isWordList([1])).toBe(false);
  });
});
