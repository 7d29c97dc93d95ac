import { describe, expect, it } from 'vitest';
import workflow from '../../schemas/rules/workflow.json';
import { isSigned, reportLanguages, servedLanguage } from './reportDocument.js';
import { ruleResolver, type RuleSet } from './rules.js';

const withLanguages = (languages: unknown) => ruleResolver([{ ...workflow, rules: { ...workflow.rules, 'report-languages': languages } } as RuleSet]);

describe('signed reports as fixed documents (issue 27)', () => {
  it('a report is signed once signed (held or issued); a supplementary one once accepted; a recalled one is not', () => {
    expect(isSigned({ report_type: 1, sub_phase: 'to_sign', sign_at: null })).toBe(false);
    expect(isSigned({ report_type: 1, sub_phase: 'to_issue', sign_at: '2026-05-01T08:00:00.000Z' })).toBe(true);
    expect(isSigned({ report_type: 1, sub_phase: 'signed', sign_at: '2026-05-01T08:00:00.000Z' })).toBe(true);
    // Recall clears the signing: back at to_sign, a draft again.
    expect(isSigned({ report_type: 1, sub_phase: 'to_sign', sign_at: '2026-05-01T08:00:00.000Z' })).toBe(false);
    for (const phase of ['draft', 'new', 'reject']) expect(isSigned({ report_type: 2, sub_phase: phase })).toBe(false);
    // Accepted before signing times were stamped on supplementary reports: signed all the same.
    expect(isSigned({ report_type: 2, sub_phase: 'accept', sign_at: null })).toBe(true);
  });

  it('a hospital issues in both languages by default, the first its issuing language; unknown entries are dropped', () => {
    expect(reportLanguages(ruleResolver([workflow as RuleSet]))).toEqual(['zh-CN', 'en-US']);
    expect(reportLanguages(withLanguages(['en-US']))).toEqual(['en-US']);
    expect(reportLanguages(withLanguages(['en-US', 'zh-CN', 'en-US']))).toEqual(['en-US', 'zh-CN']);
    expect(reportLanguages(withLanguages(['fr-FR', 'zh-CN']))).toEqual(['zh-CN']);
    // Nothing usable: still issued, in both.
    expect(reportLanguages(withLanguages([]))).toEqual(['zh-CN', 'en-US']);
    expect(reportLanguages(withLanguages('zh-CN'))).toEqual(['zh-CN', 'en-US']);
  });

  it('a reader gets their language when the report was issued in it, else the issuing language', () => {
    expect(servedLanguage(['zh-CN', 'en-US'], 'en-US')).toBe('en-US');
    expect(servedLanguage(['zh-CN'], 'en-US')).toBe('zh-CN');
    expect(servedLanguage([], 'en-US')).toBeUndefined();
  });
});
