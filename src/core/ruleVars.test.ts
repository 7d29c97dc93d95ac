import { describe, expect, it } from 'vitest';
import { ruleResolver, type RuleSet } from './rules.js';
import { logicVars } from './ruleVars.js';
import caseStatus from '../../schemas/rules/case-status.json';

describe('the fields a rule reads', () => {
  it('collects top-level var names, with defaults, nested in any operation', () => {
    expect(logicVars({ if: [{ '==': [{ var: 'a' }, 1] }, { var: ['b.c', 0] }, { cat: ['x', { var: 'a' }] }] })).toEqual(['a', 'b']);
    expect(logicVars('literal')).toEqual([]);
    expect(logicVars({ var: '' })).toEqual([]);
  });

  it('inside some/all/filter only the list itself is a field of the row', () => {
    expect(logicVars({ some: [{ var: 'items' }, { '==': [{ var: 'kind' }, 2] }] })).toEqual(['items']);
  });

  it('the shipped case status reads exactly the spec §4 fields', () => {
    const resolve = ruleResolver([caseStatus as RuleSet]);
    expect(logicVars(resolve('case-status.status')).sort()).toEqual(['archive_status', 'main_phase', 'print_deliver_status', 'report', 'report_status', 'status', 'sub_phase']);
  });
});
