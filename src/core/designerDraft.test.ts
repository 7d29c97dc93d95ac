import { describe, expect, it } from 'vitest';
import { applyMergePatch } from './mergePatch';
import { move, overrideOf, tidy, withField, withoutField, withRequired, withRule } from './designerDraft';
import type { PageSchema } from './pageSchema';

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
});
