import { getDefaultFormState, type RJSFSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { formProblems, formView, submittedData } from '../../core/formRules';
import { formRuleCases, type Expected, type FormRuleCase } from '../../core/formRules.cases';
import { resolveLabel } from '../../core/labels';
import { translateErrors } from '../../widgets/rjsf/messages';
import { ruleValidator } from './ruleValidation';
import { enUSBundle as enUS, zhCNBundle as zhCN } from '../../i18n/bundles';

type Data = Record<string, unknown>;
const LANGS = ['en-US', 'zh-CN'] as const;
const t: Record<string, TFunction> = {};

beforeAll(async () => {
  for (const lng of LANGS) {
    const i18n = i18next.createInstance();
    await i18n.init({ resources: { 'zh-CN': { translation: zhCN }, 'en-US': { translation: enUS } }, lng, interpolation: { escapeValue: false } });
    t[lng] = i18n.t;
  }
});

/** What SchemaForm does on submit: rjsf's ajv over the schema the rules leave, plus our customValidate. */
function submitInBrowser(c: FormRuleCase, lang: (typeof LANGS)[number]) {
  const formData = { ...(c.record ?? {}), ...c.data };
  const view = formView(c.form, formData, c.creating);
  const schema = view.schema as RJSFSchema;
  const state = getDefaultFormState(validator, schema, formData, schema) as Data;
  const custom = ruleValidator(c.form, c.creating, lang, undefined, t[lang]('validation.required'));
  const { errorSchema } = validator.validateFormData(state, schema, custom, translateErrors(t[lang]), view.uiSchema);
  const errors: Record<string, string[]> = {};
  for (const [field, node] of Object.entries(errorSchema as Record<string, { __errors?: string[] }>)) {
    if (node?.__errors?.length) errors[field] = node.__errors;
  }
  return { errors, body: submittedData(c.form, formData, c.creating, { original: c.record }) };
}

/** The browser's wording of an expected error (the server names the field in its own wording). */
function browserText(e: Expected, lang: string): string {
  if (e === 'required') return t[lang]('validation.required');
  if (e === 'hidden') throw new Error('the browser never sends a hidden field');
  if ('check' in e) return resolveLabel(e.check, lang);
  return t[lang](`validation.${e.keyword}`, { limit: e.limit, format: '', type: '' });
}

describe('the form-rule table, as the browser form applies it (rjsf + src/core/formRules)', () => {
  describe.each(LANGS)('%s', (lang) => {
    it.each(formRuleCases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
      const { errors, body } = submitInBrowser(c, lang);
      const expected = Object.fromEntries(Object.entries(c.expect).map(([f, list]) => [f, list.map((e) => browserText(e, lang))]));
      expect(errors).toEqual(expected);
      // Nothing the form hides leaves the browser, so the server's `hidden` refusal never meets it.
      const { hidden } = formView(c.form, { ...(c.record ?? {}), ...c.data }, c.creating);
      expect(Object.keys(body).filter((k) => hidden.includes(k))).toEqual([]);
    });
  });

  it.each(formRuleCases.filter((c) => c.raw).map((c) => [c.name, c] as const))('the core refuses what a client sends beyond the form: %s', (_name, c) => {
    const data = { ...(c.record ?? {}), ...c.data };
    const problems = formProblems(c.form, data, c.creating, { lang: 'en-US', sent: Object.keys(c.data) });
    const kinds = Object.fromEntries(Object.entries(problems).map(([f, list]) => [f, list.map((p) => (p.kind === 'check' ? { check: c.form.rules!.checks!.find((k) => k.field === f)!.message } : p.kind))]));
    expect(kinds).toEqual(c.raw);
  });
});
