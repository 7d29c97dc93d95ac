import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { operatorsFor, SEARCH_OPERATORS } from './customSearch.js';
import { applyMergePatch } from './mergePatch.js';
import { evaluateRule, logicProblems, ruleRef, ruleResolver, type RuleSet } from './rules.js';
import { caseStatusKey } from './rulesCaseStatus.js';
import { checkRuleSet, referenceProblems } from './rulesCheck.js';
import caseStatus from '../../schemas/rules/case-status.json';
import searchOperators from '../../schemas/rules/search-operators.json';

const description = { 'zh-CN': '测试', 'en-US': 'Test' };
const set = (name: string, rules: Record<string, unknown>): RuleSet => ({ name, description, rules });
const collect = () => {
  const warnings: string[] = [];
  return { warnings, warn: (m: string) => warnings.push(m) };
};

describe('rules as data (schemas/rules)', () => {
  it('every shipped rule file passes its meta-schema, its operations and its references', () => {
    const dir = path.resolve(__dirname, '../../schemas/rules');
    const sets = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => {
      const s = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as RuleSet;
      expect(s.name).toBe(path.basename(f, '.json'));
      expect(checkRuleSet(s), f).toEqual([]);
      return s;
    });
    expect(referenceProblems(sets)).toEqual([]);
    // And every reference a page schema makes resolves.
    const resolve = ruleResolver(sets, (m) => { throw new Error(m); });
    const pages = path.resolve(__dirname, '../../schemas/pages');
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      const name = ruleRef(node);
      if (name) refs.push(name);
      else if (node && typeof node === 'object') Object.values(node).forEach(walk);
    };
    for (const f of fs.readdirSync(pages)) walk(JSON.parse(fs.readFileSync(path.join(pages, f), 'utf8')));
    expect(refs).toContain('forms.upload-via-ftp');
    for (const ref of refs) expect(resolve(ref), ref).toBeDefined();
  });

  it('resolves `set.rule` with references inside expanded, so a name-only caller gets plain json-logic', () => {
    const resolve = ruleResolver([set('forms', { adult: { '>=': [{ var: 'age' }, 18] }, 'adult-ftp': { and: [{ rule: 'forms.adult' }, { var: 'ftp' }] } })]);
    expect(resolve('forms.adult-ftp')).toEqual({ and: [{ '>=': [{ var: 'age' }, 18] }, { var: 'ftp' }] });
    expect(evaluateRule({ rule: 'forms.adult-ftp' }, { age: 20, ftp: true }, { resolve, fallback: false })).toBe(true);
    // Inline json-logic may hold references too.
    expect(evaluateRule({ '!': { rule: 'forms.adult' } }, { age: 3 }, { resolve, fallback: false })).toBe(true);
    expect(ruleRef({ rule: 'forms.adult' })).toBe('forms.adult');
    expect(ruleRef({ rule: 'forms.adult', x: 1 })).toBeUndefined();
  });

  it('falls back to empty with one warning for a missing rule, a cycle, an unknown operation or a throw (spec §5)', () => {
    const { warnings, warn } = collect();
    const resolve = ruleResolver([set('a', { loop: { rule: 'a.back' }, back: { rule: 'a.loop' }, odd: { frobnicate: [1] }, log: { log: 'patient' } })], warn);
    expect(resolve('a.loop')).toBeUndefined();
    expect(resolve('a.odd')).toBeUndefined();
    expect(resolve('a.log')).toBeUndefined();
    expect(resolve('a.none')).toBeUndefined();
    expect(resolve('a.loop')).toBeUndefined();
    expect(warnings).toEqual([
      'rule a.loop refers to itself (a.loop → a.back → a.loop)',
      'rule a.odd: /frobnicate unknown operation "frobnicate"',
      'rule a.log: /log unknown operation "log"',
      'rule a.none does not exist',
    ]);
    const evaluated = collect();
    expect(evaluateRule({ rule: 'a.loop' }, {}, { resolve, fallback: [], warn: evaluated.warn })).toEqual([]);
    expect(evaluateRule({ in: ['x', { var: 'missing' }] }, {}, { fallback: 'empty', warn: evaluated.warn })).toBe(false);
    expect(evaluateRule({ nope: [] }, {}, { fallback: 'empty', warn: evaluated.warn })).toBe('empty');
    expect(evaluated.warnings).toEqual(['rule a.loop does not exist', '/nope unknown operation "nope"']);
  });

  it('finds problems before a rule runs: unknown operations, malformed references, depth', () => {
    expect(logicProblems({ and: [{ var: 'a' }, { rule: 'no-dot' }, { eval: 'x' }] }, '/rules/r')).toEqual([
      { path: '/rules/r/and/1/rule', message: 'a rule reference is "<set>.<rule>"' },
      { path: '/rules/r/and/2/eval', message: 'unknown operation "eval"' },
    ]);
    let deep: unknown = true;
    for (let i = 0; i < 40; i++) deep = { '!': deep };
    expect(logicProblems(deep)[0].message).toBe('nested deeper than 32');
    // Objects with several keys are data, not operations.
    expect(logicProblems({ '==': [{ var: 'x' }, { a: 1, b: 2 }] })).toEqual([]);
  });

  it('refuses a rule set that breaks the meta-schema or its references', () => {
    expect(checkRuleSet({ name: 'Bad Name', description, rules: {} }).map((p) => p.path)).toEqual(['/name']);
    expect(checkRuleSet({ name: 'x', rules: {} })).toEqual([{ path: '/', message: "must have required property 'description'" }]);
    expect(checkRuleSet(set('x', { r: { nope: 1 } }))).toEqual([{ path: '/rules/r/nope', message: 'unknown operation "nope"' }]);
    expect(referenceProblems([set('x', { r: { rule: 'y.gone' } })])).toEqual([{ path: '/rules/r', message: 'rule y.gone does not exist' }]);
  });

  it('custom-search operators come from the search-operators set; a hospital restricts or adds only what the server runs', () => {
    const base = ruleResolver([searchOperators as RuleSet]);
    expect(operatorsFor({ widget: 'input', field: 'name' }, base)).toEqual(['=', '!=', 'like', 'not like', 'in', 'not in']);
    expect(operatorsFor({ widget: 'boolean', field: 'locked' }, base)).toEqual(['=', '!=']);

    // Restrict by widget, and per field through the data { widget, field }.
    const restricted = applyMergePatch(searchOperators as RuleSet, {
      rules: { input: { if: [{ '==': [{ var: 'field' }, 'name'] }, ['like'], ['=', '!=']] }, boolean: ['='] },
    });
    expect(checkRuleSet(restricted)).toEqual([]);
    const resolve = ruleResolver([restricted]);
    expect(operatorsFor({ widget: 'input', field: 'name' }, resolve)).toEqual(['like']);
    expect(operatorsFor({ widget: 'input', field: 'email' }, resolve)).toEqual(['=', '!=']);
    expect(operatorsFor({ widget: 'boolean', field: 'locked' }, resolve)).toEqual(['=']);

    // Adding is limited to the operators filter-sql.ts executes; the check names the offender.
    const added = applyMergePatch(searchOperators as RuleSet, { rules: { boolean: ['=', 'regex'], colour: ['='] } });
    expect(checkRuleSet(added)).toEqual([
      { path: '/rules/boolean', message: `not an operator the server runs: "regex" (allowed: ${SEARCH_OPERATORS.join(', ')})` },
      { path: '/rules/colour', message: expect.stringContaining('not a search widget') },
    ]);
    // Should one slip through (an evaluation-time result), it is dropped rather than offered.
    expect(operatorsFor({ widget: 'boolean', field: 'x' }, ruleResolver([added], () => undefined))).toEqual(['=']);
    // No rule for the type: no operators (spec §5 empty fallback), never a crash.
    expect(operatorsFor({ widget: 'number', field: 'x' }, ruleResolver([], () => undefined), () => undefined)).toEqual([]);
  });

  it('the case status display is one rule evaluated the same way everywhere (toy rule of case-status.json)', () => {
    const resolve = ruleResolver([caseStatus as RuleSet]);
    expect(caseStatusKey({ archive_status: 'filed', sub_phase: 'to_sign' }, resolve)).toBe('filed');
    expect(caseStatusKey({ sub_phase: 'to_sign', main_phase: 'diagnosis' }, resolve)).toBe('to_sign');
    expect(caseStatusKey({ status: 'doing', main_phase: 'diagnosis' }, resolve)).toBe('doing');
    expect(caseStatusKey({ main_phase: 'diagnosis' }, resolve)).toBe('diagnosis');
    expect(caseStatusKey({}, resolve)).toBe('');
    // A hospital's override changes the display; a broken one shows empty.
    const hospital = ruleResolver([applyMergePatch(caseStatus as RuleSet, { rules: { status: { if: [{ var: 'expedite_status' }, 'urgent', { var: 'main_phase' }] } } })]);
    expect(caseStatusKey({ expedite_status: 1, main_phase: 'diagnosis' }, hospital)).toBe('urgent');
    const { warnings, warn } = collect();
    expect(caseStatusKey({ main_phase: 'x' }, ruleResolver([set('case-status', { status: { nope: 1 } })], warn), warn)).toBe('');
    expect(warnings).toHaveLength(2);
  });
});
