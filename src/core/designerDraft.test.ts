import { describe, expect, it } from 'vitest';
import { applyMergePatch } from './mergePatch';
import { checkDraftProblems, move, overrideOf, setOrClear, tidy, withCheck, withField, withoutField, withRequired, withRule } from './designerDraft';
import type { ColumnSchema, PageSchema } from './pageSchema';

const base: PageSchema = { alias: 'P', type: 'list', resource: 'r', title: 'P', list: { columns: [{ field: 'a' }, { field: 'b' }] } } as PageSchema;

describe('designer drafts', () => {
  it('overrideOf answers the patch that turns the base into the draft, and {} for no change', () => {
    expect(overrideOf(base, structuredClone(base))).toEqual({});
    const draft = { ...base, title: undefined, list: { columns: [{ field: 'b', hidden: true }, { field: 'a' }] } } as unknown as PageSchema;
    const patch = overrideOf(base, JSON.parse(JSON.stringify(draft)));
    expect(patch).toEqual({ title: null, list: { columns: [{ field: 'b', hidden: true }, { field: 'a' }] } });
    expect(applyMergePatch(base, patch)).toEqual(JSON.parse(JSON.stringify(draft)));
  });
  it('move drags an item to another place', () => {
    expect(move(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(move(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
  });
  it('edits an extension: a field with its requirement and rules, and removing it removes all that named it', () => {
    let ext = withField({}, 'ward', { type: 'string', maxLength: 40 });
    ext = withRequired(ext, 'ward', true);
    ext = withRule(ext, 'requiredIf', 'ward', { '==': [{ var: 'case_type' }, 'frozen'] });
    ext = withRule(ext, 'visibleIf', 'ward', true);
    expect(ext).toEqual({ fields: { ward: { type: 'string', maxLength: 40 } }, required: ['ward'],
      rules: { requiredIf: { ward: { '==': [{ var: 'case_type' }, 'frozen'] } }, visibleIf: { ward: true } } });
    expect(withRule(withRequired(ext, 'ward', false), 'visibleIf', 'ward', undefined)).toEqual({
      fields: { ward: { type: 'string', maxLength: 40 } }, rules: { requiredIf: { ward: { '==': [{ var: 'case_type' }, 'frozen'] } } } });
    expect(withoutField(ext, 'ward')).toEqual({});
    expect(tidy({ fields: {}, required: [], rules: { checks: [] } })).toEqual({});
  });
  it('adds, edits and removes form checks, and says what keeps a half-built one from being saved', () => {
    const rule = { or: [{ '!=': [{ var: 'age_unit' }, 'day'] }, { '<': [{ var: 'age' }, 31] }] };
    const message = { 'zh-CN': '按天计的年龄应小于 31', 'en-US': 'An age in days is under 31' };
    let ext = withCheck({}, 0, { field: 'age', message: { 'zh-CN': '', 'en-US': '' } });
    expect(checkDraftProblems(ext)).toEqual([{ index: 0, problem: 'rule' }, { index: 0, problem: 'message' }]);
    ext = withCheck(ext, 0, { field: 'age', rule, message });
    expect(checkDraftProblems(ext)).toEqual([]);
    expect(ext).toEqual({ rules: { checks: [{ field: 'age', rule, message }] } });
    // Added at the end; the first edited in place; removing the first leaves the second.
    ext = withCheck(ext, 1, { field: 'phone', rule: { var: 'patient_name' }, message: { 'zh-CN': '有电话须有姓名', 'en-US': '' } });
    expect(checkDraftProblems(ext)).toEqual([{ index: 1, problem: 'message' }]);
    ext = withCheck(ext, 0, { field: 'age', rule: true, message });
    expect(ext.rules!.checks!.map((c) => c.rule)).toEqual([true, { var: 'patient_name' }]);
    expect(withCheck(ext, 0, undefined).rules!.checks!.map((c) => c.field)).toEqual(['phone']);
    // The last one gone, nothing is left of the rules (the extension saves as the base).
    expect(withCheck(withCheck(ext, 0, undefined), 0, undefined)).toEqual({});
    // A check beside a field's rules keeps them.
    expect(withCheck(withRule({}, 'requiredIf', 'age', true), 0, { field: 'age', rule, message })).toEqual({ rules: { requiredIf: { age: true }, checks: [{ field: 'age', rule, message }] } });
  });
});

describe('setOrClear (a designer input on one property)', () => {
  const column: ColumnSchema = { field: 'patient_name', width: 120, hidden: true };

  it('sets a value on a copy, leaving the item as it was', () => {
    expect(setOrClear(column, 'width', 200)).toEqual({ field: 'patient_name', width: 200, hidden: true });
    expect(setOrClear(column, 'pinned', true)).toEqual({ ...column, pinned: true });
    expect(column).toEqual({ field: 'patient_name', width: 120, hidden: true });
  });

  it('leaves the key out for an empty value (undefined, false, an empty text), so the schema holds no default', () => {
    expect(setOrClear(column, 'hidden', false)).toEqual({ field: 'patient_name', width: 120 });
    expect(setOrClear(column, 'width', undefined)).toEqual({ field: 'patient_name', hidden: true });
    expect(Object.keys(setOrClear(column, 'options', ''))).toEqual(['field', 'width', 'hidden']);
  });
});
