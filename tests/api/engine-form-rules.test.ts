import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate, type Language } from '../../server/i18n/translate.js';
import { submittedData } from '../../src/core/formRules.js';
import { formRuleCases, type Expected, type FormRuleCase } from '../../src/core/formRules.cases.js';
import type { FormSchema, InlineLabel } from '../../src/core/pageSchema.js';
import { resolvePage } from '../../src/core/resolvePage.js';
import { convertOverride } from '../../server/db/migrations/frozen/page-language-2.js';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/**
 * The form-rule table of src/core/formRules.cases.ts through the generic resource API: each case's form is a
 * hospital's extension of the cases resource's contract (its fields are free `extra` fields of a case, written
 * as the case's JSON Schema and turned into the extension as the upgrade turns an old form override), and the
 * body is the one the browser's CaseList form would send for the case's data. The same cases run in the
 * browser's form in src/engine/form/ruleValidation.test.ts; both must accept and refuse alike, with the same
 * messages.
 */
const SCHEMA = '/api/schemas/CaseList';
const CONTRACT = '/api/contracts/cases';
const LANGS: Language[] = ['en-US', 'zh-CN'];
type Row = Record<string, unknown>;

const label = (l: unknown, lang: Language) => (l && typeof l === 'object' ? (l as InlineLabel)[lang] : String(l ?? ''));

/** The server's wording of an expected error: the field named by its title in the caller's language. */
function serverText(c: FormRuleCase, field: string, e: Expected, lang: Language): string {
  const title = label((c.form.uiSchema?.[field] as { 'ui:title'?: unknown } | undefined)?.['ui:title'], lang) || field;
  if (e === 'required') return translate(lang, 'validation.required', { field: title });
  if (e === 'hidden') return translate(lang, 'validation.hidden_field', { field: title });
  if ('check' in e) return e.check[lang];
  return translate(lang, `validation.${e.keyword}`, { field: title, limit: e.limit });
}

const texts = (c: FormRuleCase, expected: Record<string, Expected[]>, lang: Language) =>
  Object.fromEntries(Object.entries(expected).map(([f, list]) => [f, list.map((e) => serverText(c, f, e, lang))]));

describe.each(databases)('one set of form rules: the table through a resource write [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  let serial = 0;
  beforeAll(async () => {
    h = await startApp(kind);
    admin = await tokenFor(h.app, 'admin');
  });
  afterAll(async () => { await h.close(); });

  /**
   * The case's form as the admin's hospital's extension of the cases contract; `fieldsOnly` leaves its rules
   * out. Answers the CaseList form as the browser compiles it over the extended contract.
   */
  async function override(form: FormSchema, fieldsOnly = false): Promise<FormSchema> {
    const contract = { fields: {}, required: ['pathology_number', 'case_type'] };
    const old = fieldsOnly ? { form: { schema: { properties: (form.schema as { properties: object }).properties }, uiSchema: form.uiSchema } } : { form };
    const { extension, dropped } = convertOverride(old, { contract });
    expect(dropped).toEqual([]);
    const saved = await call(h.app, 'PUT', CONTRACT, { token: admin, payload: { override: extension } });
    expect(saved.statusCode, saved.body).toBe(200);
    return resolvePage((await call(h.app, 'GET', SCHEMA, { token: admin })).json().data).schema.form!;
  }

  const newCase = () => ({ pathology_number: `FR-${kind}-${++serial}`, case_type: 'routine' });

  /** Sends the case (as the browser would, or `raw` as a client that posts its data as is) in one language. */
  async function write(c: FormRuleCase, lang: Language, raw: boolean) {
    if (c.creating) {
      const form = await override(c.form);
      const data = { ...newCase(), ...c.data };
      const body = raw ? data : submittedData(form, data, true);
      return { body, stored: {}, res: await call(h.app, 'POST', '/api/pathology/store', { token: admin, lang, payload: body }) };
    }
    await override(c.form, true);
    const created = await call(h.app, 'POST', '/api/pathology/store', { token: admin, payload: { ...newCase(), ...c.record } });
    expect(created.statusCode, created.body).toBe(200);
    const row = created.json().data as Row;
    const form = await override(c.form);
    const body = raw ? c.data : submittedData(form, { ...row, ...c.data }, false, { original: row });
    return { body, stored: c.record ?? {}, res: await call(h.app, 'PATCH', `/api/pathology/update/${row.id}`, { token: admin, lang, payload: body }) };
  }

  async function expectOutcome(c: FormRuleCase, expected: Record<string, Expected[]>, lang: Language, raw: boolean) {
    const { body, stored, res } = await write(c, lang, raw);
    if (Object.keys(expected).length) {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors).toEqual(texts(c, expected, lang));
      return;
    }
    expect(res.statusCode, res.body).toBe(200);
    // An accepted write stores what was sent; what it did not send (a field the form hid) keeps its stored value.
    const saved = res.json().data as Row;
    for (const [k, v] of Object.entries({ ...stored, ...body })) expect(saved[k], k).toEqual(v);
  }

  for (const lang of LANGS) {
    it.each(formRuleCases.map((c) => [c.name, c] as const))(`${lang}: %s`, (_name, c) => expectOutcome(c, c.expect, lang, false));
  }

  it.each(formRuleCases.filter((c) => c.raw).map((c) => [c.name, c] as const))('a client posting the data as is: %s', async (_name, c) => {
    for (const lang of LANGS) await expectOutcome(c, c.raw!, lang, true);
  });
});
