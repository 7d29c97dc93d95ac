import { describe, expect, it } from 'vitest';
import { evaluateRule, fieldTitle, formProblems, formView, ruleHolds, serverErrorsToErrorSchema, submittedData, undeclaredFields } from './formRules.js';
import { resourceContract, type ResourceWrites } from './contract.js';
import type { FormLayout, FormSchema } from './pageSchema.js';
import { compileForm } from './resolvePage.js';
import systemUser from '../../schemas/pages/SystemUser.json';
import users from '../../schemas/resources/users.json';

/** The user form as the browser draws it: the page's layout over the users resource's contract. */
const form = compileForm(systemUser.form as FormLayout, resourceContract(users as unknown as ResourceWrites));

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
    expect(formProblems(form, { password: 'abcdefgh', password_confirmation: 'x' }, true, { lang: 'en-US' }).password_confirmation)
      .toEqual([{ kind: 'check', text: 'The two passwords do not match' }]);
    expect(formProblems(form, { password: 'abcdefgh', password_confirmation: 'abcdefgh' }, true, { lang: 'zh-CN' }).password_confirmation).toBeUndefined();
  });
  it('a rule that cannot be evaluated does not hold', () => {
    expect(ruleHolds({ no_such_op: [1] }, {}, false)).toBe(false);
    expect(ruleHolds(undefined, {}, false)).toBe(true);
    expect(evaluateRule({ no_such_op: [1] }, {}, false)).toBeUndefined();
  });
  it('json-logic truthiness: an empty list is false', () => {
    expect(ruleHolds({ var: 'tags' }, { tags: [] }, false)).toBe(false);
    expect(ruleHolds({ var: 'tags' }, { tags: ['x'] }, false)).toBe(true);
  });
  it('a form rule that cannot be evaluated makes the form stricter: shown, required, check failing', () => {
    const broken = { no_such_op: [] };
    const f: FormSchema = {
      schema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } },
      rules: { visibleIf: { a: broken }, requiredIf: { b: broken }, checks: [{ field: 'a', rule: broken, message: 'bad' }] },
    };
    const view = formView(f, {}, true);
    expect(view.hidden).toEqual([]);
    expect(view.schema.required).toEqual(['b']);
    expect(formProblems(f, { a: 'x', b: 'y' }, true, { lang: 'en-US' })).toEqual({ a: [{ kind: 'check', text: 'bad' }] });
  });
  it('named rules come from the resolver, inline or nested; an unknown name is a rule that cannot be evaluated', () => {
    const rules: Record<string, unknown> = { 'demo.isFtp': { '==': [{ var: 'protocol' }, 'ftp'] } };
    const resolve = (name: string) => rules[name];
    const f: FormSchema = {
      schema: { type: 'object', properties: { protocol: { type: 'string' }, user: { type: 'string' }, port: { type: 'integer' } } },
      rules: { visibleIf: { user: { rule: 'demo.isFtp' }, port: { and: [{ rule: 'demo.isFtp' }, { var: 'advanced' }] } } },
    };
    expect(formView(f, { protocol: 'http' }, true, { resolve }).hidden).toEqual(['user', 'port']);
    expect(formView(f, { protocol: 'ftp', advanced: true }, true, { resolve }).hidden).toEqual([]);
    expect(formView(f, { protocol: 'http' }, true).hidden).toEqual([]);
    expect(submittedData(f, { protocol: 'http', user: 'u' }, true, { resolve })).toEqual({ protocol: 'http' });
  });
  it('a value sent for a hidden field is a problem by name; createOnly fields sent on update are shown and checked', () => {
    const f: FormSchema = { schema: { type: 'object', properties: { s: { type: 'integer' }, r: { type: 'string' } } }, rules: { visibleIf: { r: { '==': [{ var: 's' }, 0] } } } };
    expect(formProblems(f, { s: 1, r: 'x' }, false, { lang: 'en-US', sent: ['s', 'r'] })).toEqual({ r: [{ kind: 'hidden' }] });
    expect(formProblems(f, { s: 1, r: 'x' }, false, { lang: 'en-US', sent: ['s'] })).toEqual({});
    expect(formView(form, {}, false, { sent: ['password'] }).hidden).toEqual([]);
    expect(formProblems(form, { password: 'abcdefgh' }, false, { lang: 'en-US', sent: ['password'] }).password_confirmation)
      .toEqual([{ kind: 'required' }, { kind: 'check', text: 'The two passwords do not match' }]);
  });
  it('names a field by its ui:title in the language, else its schema title, else its name', () => {
    expect(fieldTitle(form, 'password_confirmation', 'en-US')).toBe('Confirm password');
    expect(fieldTitle({ schema: { properties: { a: { title: 'A' } } } }, 'a', 'en-US')).toBe('A');
    expect(fieldTitle(undefined, 'a', 'en-US')).toBe('a');
  });
  it('appends * to ui:order so an added field is not an error', () => {
    const f: FormSchema = { schema: { type: 'object', properties: { a: {}, b: {} } }, uiSchema: { 'ui:order': ['a'] } };
    expect(formView(f, {}, true).uiSchema['ui:order']).toEqual(['a', '*']);
  });
  it('sends only the fields the form shows; a shown nullable field the user emptied as null', () => {
    expect(submittedData(form, { name: 'x', password: 'p', id: 3 }, false)).toEqual({ name: 'x' });
    const f: FormSchema = { schema: { type: 'object', properties: { s: { type: 'integer' }, r: { type: ['string', 'null'] }, n: { type: ['string', 'null'] } } }, rules: { visibleIf: { r: { '==': [{ var: 's' }, 0] } } } };
    expect(submittedData(f, { s: 1 }, false, { original: { s: 0, r: 'kept', n: 'old' } })).toEqual({ s: 1, n: null });
  });
  it('turns the server 422 errors into rjsf extra errors', () => {
    expect(serverErrorsToErrorSchema({ name: ['taken'], 'items.0.code': 'bad' })).toEqual({
      name: { __errors: ['taken'] }, items: { 0: { code: { __errors: ['bad'] } } },
    });
    expect(serverErrorsToErrorSchema(null)).toEqual({});
  });
});

describe('undeclaredFields', () => {
  const f: FormSchema = { schema: { type: 'object', properties: { status: { type: 'integer' }, reason: { type: 'string' } } }, rules: { visibleIf: { reason: { '==': [{ var: 'status' }, 0] } } } };
  it('names the fields the form does not declare, hidden ones being declared', () => {
    expect(undeclaredFields(f, { status: 1, reason: 'x' })).toEqual([]);
    expect(undeclaredFields(f, { status: 1, other: 1, toString: 2 })).toEqual(['other', 'toString']);
    expect(undeclaredFields({ schema: { type: 'object' } }, { a: 1 })).toEqual(['a']);
  });
});
