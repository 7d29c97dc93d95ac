import { describe, expect, it } from 'vitest';
import workflow from '../../schemas/rules/workflow.json';
import { clinicalReachMode, readsClinically } from './clinicalReach.js';
import { ruleResolver, type RuleSet } from './rules.js';

const withReach = (reach: unknown) => ruleResolver([{ ...workflow, rules: { ...workflow.rules, 'clinical-reach': reach } } as RuleSet], () => {});

describe('the clinical side’s reach (issue 31)', () => {
  it('is the clinician’s own requests by default; a hospital widens it to its departments or all of it; anything else reads as own', () => {
    expect(clinicalReachMode(ruleResolver([workflow as RuleSet]))).toBe('own');
    expect(clinicalReachMode(withReach('department'))).toBe('department');
    expect(clinicalReachMode(withReach('hospital'))).toBe('hospital');
    for (const odd of ['everyone', 3, null, ['hospital']]) expect(clinicalReachMode(withReach(odd))).toBe('own');
  });

  it('applies to whoever reads reports only through the clinical list: its code without case_view', () => {
    const holding = (...codes: string[]) => (code: string) => codes.includes(code);
    expect(readsClinically(holding('clinical_report_view', 'slide_view'))).toBe(true);
    expect(readsClinically(holding('clinical_report_view', 'case_view'))).toBe(false);
    expect(readsClinically(holding('case_view'))).toBe(false);
    expect(readsClinically(holding())).toBe(false);
  });
});
