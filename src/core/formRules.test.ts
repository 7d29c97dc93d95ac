import { describe, expect, it } from 'vitest';
import { formCheckErrors, formView, ruleHolds, serverErrorsToErrorSchema, submittedData } from './formRules.js';
import type { FormSchema } from './pageSchema.js';
import systemUser from '../../schemas/pages/SystemUser.json';

const form = systemUser.form as unknown as FormSchema;

describe('form rules of the page schema (json-logic, with $creating)', () => {
  it('createOnly fields only when creating', () => {
    expect(formView(form, {}, true).hidden).toEqual([]);
    const edit = formView(form, {}, false);
    expect(edit.hidden).toEqual(['password', 'password_confirmation']);
    expect(Object.keys(edit.schema.properties as object)).not.toContain('password');
  });
  it('requiredIf holds with the data plus $creating', () => {
    expect(formView(form, {}, true).schema.required).toContain('password');
    expect(formView(form, {}, true).schema.required).not.toContain('password_confirmation');
    expect(formView(form, { password: 'secret123' }, true).schema.required).toContain('password_confirmation');
    expect(formView(form, {}, false).schema.required).not.toContain('password');
  });
  it('visibleIf hides a field when its rule is false', () => {
    const f: FormSchema = { schema: { type: 'object', required: ['reason'], properties: { status: { type: 'integer' }, reason: { type: 'string' } } }, rules: { visibleIf: { reason: { '==': [{ var: 'status' }, 0] } } } };
    expect(formView(f, { status: 1 }, false).hidden).toEqual(['reason']);
    expect(formView(f, { status: 1 }, false).schema.required).toEqual([]);
    expect(formView(f, { status: 0 }, false).hidden).toEqual([]);
  });
  it('checks put their message on their field', () => {
    expect(formCheckErrors(form, { password: 'abcdefgh', password_confirmation: 'x' }, true, 'en-US')).toEqual({ password_confirmation: ['The two passwords do not match'] });
    expect(formCheckErrors(form, { password: 'abcdefgh', password_confirmation: 'abcdefgh' }, true, 'zh-CN')).toEqual({});
  });
  it('a rule that cannot be evaluated does not hold', () => {
    expect(ruleHolds({ no_such_op: [1] }, {}, false)).toBe(false);
    expect(ruleHolds(undefined, {}, false)).toBe(true);
  });
  it('appends * to ui:order so an added field is not an error', () => {
    const f: FormSchema = { schema: { type: 'object', properties: { a: {}, b: {} } }, uiSchema: { 'ui:order': ['a'] } };
    expect(formView(f, {}, true).uiSchema['ui:order']).toEqual(['a', '*']);
  });
  it('sends only the fields the form shows', () => {
    expect(submittedData(form, { name: 'x', password: 'p', id: 3 }, false)).toEqual({ name: 'x' });
  });
  it('turns the server 422 errors into rjsf extra errors', () => {
    expect(serverErrorsToErrorSchema({ name: ['taken'], 'items.0.code': 'bad' })).toEqual({
      name: { __errors: ['taken'] }, items: { 0: { code: { __errors: ['bad'] } } },
    });
    expect(serverErrorsToErrorSchema(null)).toEqual({});
  });
});
