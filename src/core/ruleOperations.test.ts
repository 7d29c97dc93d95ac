import { afterEach, describe, expect, it, vi } from 'vitest';
import registration from '../../schemas/pages/CaseRegistration.json';
import { evaluateRule as formRule } from './formRules.js';
import { checkContractExtension, checkPageSchema } from './pageSchemaCheck.js';
import { applyBounded } from './ruleBudget.js';
import { RuleOperationError } from './ruleOperations.js';
import { evaluateRule } from './rules.js';

const printing = { '==': [{ log: { var: 'secret' } }, 1] };

describe('json-logic keeps to RULE_OPERATIONS at run and at save', () => {
  afterEach(() => vi.restoreAllMocks());

  it('refuses `log` before it runs, in every evaluator', () => {
    const printed = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    expect(() => applyBounded(printing, { secret: 'S-1' })).toThrow(RuleOperationError);
    expect(() => applyBounded({ method: [{ var: 'secret' }, 'toUpperCase'] }, { secret: 's' })).toThrow('operation "method" is not allowed');
    expect(formRule(printing, { secret: 'S-2' }, false)).toBeUndefined();
    const warned: string[] = [];
    expect(evaluateRule({ if: [true, printing, 0] }, { secret: 'S-3' }, { fallback: 'fallback', warn: (m) => warned.push(m) })).toBe('fallback');
    expect(warned).toEqual(['/if/1/==/0/log unknown operation "log"']);
    expect(printed).not.toHaveBeenCalled();
    expect(applyBounded({ '==': [{ var: 'secret' }, 1] }, { secret: 1 })).toBe(true);
  });

  it('refuses at save a page’s form rule and a contract extension’s check that use `log`, by path', () => {
    expect(checkPageSchema(registration)).toEqual([]);
    const { contract } = registration.form as unknown as { contract: { rules: { visibleIf: object } } };
    const rules = { ...contract.rules, visibleIf: { ...contract.rules.visibleIf, bed_number: printing } };
    const page = { ...registration, form: { ...registration.form, contract: { ...contract, rules } } };
    expect(checkPageSchema(page)).toEqual([{ path: '/form/contract/rules/visibleIf/bed_number/==/0/log', message: 'unknown operation "log"' }]);
    const ext = { rules: { requiredIf: { a: printing } } };
    expect(checkContractExtension(ext, { fields: {} })).toEqual([{ path: '/rules/requiredIf/a/==/0/log', message: 'unknown operation "log"' }]);
  });
});
